"""The blueprint catalog browser: cards with live previews, category tabs and search, and a
read-only view of one blueprint."""
