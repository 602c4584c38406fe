"""The embedded execution engine: DAG ordering, conditions, retry, agent kinds, the step runner."""
