"""Runs as a person reviews them: the history of a workflow's executions and one execution's
steps, decisions and compensations. Each shows stored records and emits intents carrying ids."""
