"""Apps as data: what one holds, its statuses, and the rule for its name."""

import pytest
from pydantic import ValidationError

from studio.model.apps import APP_STATUSES, App, app_name
from studio.model.errors import APP_NAME_REQUIRED, NotAllowedError


def test_a_new_app_is_active_at_version_1_with_no_workflows() -> None:
    app = App(id="app-1", name="Support")
    assert (app.status, app.version, app.workflow_ids, app.archived) == ("ACTIVE", 1, [], False)


def test_an_app_is_active_or_archived_and_nothing_else() -> None:
    assert APP_STATUSES == ("ACTIVE", "ARCHIVED")
    assert App(id="a", name="n", status="ARCHIVED").archived
    with pytest.raises(ValidationError):
        App.model_validate({"id": "a", "name": "n", "status": "DELETED"})


def test_an_app_goes_to_data_in_camel_case() -> None:
    data = App(id="a", name="n", org_id="local", workflow_ids=["w"]).to_data()
    assert data | {"orgId": "local", "workflowIds": ["w"]} == data


def test_a_name_is_kept_without_surrounding_space() -> None:
    assert app_name("  Support desk \n") == "Support desk"


@pytest.mark.parametrize("blank", ["", "   ", "\t\n"])
def test_a_blank_name_is_refused(blank: str) -> None:
    with pytest.raises(NotAllowedError, match=APP_NAME_REQUIRED):
        app_name(blank)
