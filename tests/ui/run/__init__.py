"""Tests of the run panels: approvals, history and execution detail."""
