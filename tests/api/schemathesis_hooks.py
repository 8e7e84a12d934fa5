"""Schemathesis hooks for this API (``schemathesis.toml`` loads them for the CLI run).

``schema_layer_takes_what_the_document_allows``: where the game's rules may refuse
schema-valid data with a 422 (the config's per-operation expected statuses), the stock
``positive_data_acceptance`` check can no longer tell the rules' refusal from the schema's. The
schema layer's refusal has its own form (``app.problems``: code ``invalid_request`` with the
fields in ``errors``), so this check fails exactly that answer to positive data — a document
that allows what the request schemas refuse — on every operation.
"""

from __future__ import annotations

from typing import Any

import schemathesis


@schemathesis.check
def schema_layer_takes_what_the_document_allows(ctx: Any, response: Any, case: Any) -> None:
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 422:
        return
    try:
        body = response.json()
    except ValueError:
        return
    if isinstance(body, dict) and body.get("code") == "invalid_request" and "errors" in body:
        raise AssertionError(
            "the request schema refused data the document allows: " + str(body.get("detail"))
        )
