"""The Work mode: the Fabric work queue as a board of items by status, each item's detail,
the workers' leases, and a person's actions on the queue."""
