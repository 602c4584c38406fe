"""What every node of one execution shares while it runs: the workflow, the policy, the
agent definitions it pinned, the credentials, and what was already worked out once."""

import json
from dataclasses import dataclass, field
from typing import Protocol

from studio.engine.credentials import (
    CredentialError,
    Redactor,
    agent_secret_name,
    resolve_credentials,
    resolve_reference,
)
from studio.model import AgentDefinition, Workflow
from studio.model.agent_parameters import refusal
from studio.model.governance import GovernanceSettings


class AgentSource(Protocol):
    """Where a run finds the definition of an agent id: the versions it pinned."""

    def get(self, agent_id: str, /) -> AgentDefinition | None:
        """The definition of ``agent_id``, if the run has one."""
        ...


@dataclass
class RunContext:
    """What every node of one execution shares: the workflow, the policy, the agent
    definitions it pinned, the credentials."""

    execution_id: str
    workflow: Workflow
    policy: GovernanceSettings
    agents: AgentSource
    secrets: dict[str, str] = field(default_factory=dict, repr=False)
    credential_problem: str | None = None
    refusals: dict[str, str | None] = field(default_factory=dict, repr=False)
    """Verdicts on parameter values already checked against an agent's schema."""

    def learn_agent_secrets(self, agent: AgentDefinition) -> None:
        """Resolve an agent's own ``...Ref`` credential settings too, so that their values
        are redacted like the workflow's (the kind resolves them again for its call)."""
        for key, value in agent.settings.items():
            name = agent_secret_name(agent.id, key)
            if key.endswith("Ref") and isinstance(value, str) and name not in self.secrets:
                try:
                    self.secrets[name] = resolve_reference(value)
                except CredentialError:
                    continue  # the kind reports it when it needs the value

    def parameter_refusal(self, agent: AgentDefinition, values: dict) -> str | None:
        """Why the values break the agent's parameter schema, or None; each distinct set of
        values is checked once per run (the run's agent definitions do not change)."""
        key = json.dumps([agent.id, values], sort_keys=True, default=repr)
        if key not in self.refusals:
            self.refusals[key] = refusal(agent.parameters, values)
        return self.refusals[key]

    @property
    def redactor(self) -> Redactor:
        """Removes credential values from anything about to be stored or logged."""
        return Redactor(self.secrets.values())

    @classmethod
    def for_execution(
        cls,
        execution_id: str,
        workflow: Workflow,
        workspace_policy: GovernanceSettings,
        agents: AgentSource,
    ):
        """Resolve the workflow's credential references for this run only."""
        policy = workspace_policy.merged_with(workflow.configuration.governance)
        context = cls(execution_id, workflow, policy, agents)
        try:
            context.secrets = resolve_credentials(workflow.configuration.credentials)
        except CredentialError as failure:
            context.credential_problem = str(failure)
        return context
