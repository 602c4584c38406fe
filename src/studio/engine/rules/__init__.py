"""The engine's pure rules: ordering and readiness (dag), edge conditions, retry backoff,
templates and JSON paths. No store, no asyncio, no agent kinds: plain functions over data,
so property tests can hammer them."""
