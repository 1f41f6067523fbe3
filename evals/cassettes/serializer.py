"""The cassette file format: VCR's YAML, with JSON bodies stored as YAML so they read in review.

Request and response bodies that are JSON are written as `body: {json: ...}` with multi-line
strings (the prompts) as literal blocks, and turned back into JSON text on load. Matching still
works: VCR compares JSON bodies parsed, not byte for byte.

The top-level `metadata:` block (the prompts a cassette was recorded with) is written but not
handed back to VCR on load: pytest-recording 0.14 cannot load cassettes that carry VCR
metadata. The harness reads it from the file itself (`provenance.read_file`).
"""

from __future__ import annotations

import json
from typing import Any

import yaml

from pipeline.redact import redact


class _Dumper(yaml.SafeDumper):
    pass


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def _parsed(text: Any) -> Any:
    if not isinstance(text, str) or not text.lstrip().startswith(("{", "[")):
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None


def _request_out(request: dict[str, Any]) -> dict[str, Any]:
    parsed = _parsed(request.get("body"))
    body = {"json": parsed} if parsed is not None else request.get("body")
    return {
        "method": request.get("method"),
        "uri": redact(request["uri"]) if isinstance(request.get("uri"), str) else None,
        "headers": request.get("headers") or {},
        "body": body,
    }


def _response_out(response: dict[str, Any]) -> dict[str, Any]:
    text = (response.get("body") or {}).get("string")
    parsed = _parsed(text)
    return {
        "status": response.get("status"),
        "headers": response.get("headers") or {},
        "body": {"json": parsed} if parsed is not None else {"string": text},
    }


def serialize(cassette_dict: dict[str, Any]) -> str:
    """Cassette data -> YAML text (VCR serializer protocol)."""
    out: dict[str, Any] = {"version": cassette_dict.get("version", 1)}
    if cassette_dict.get("metadata"):
        out["metadata"] = cassette_dict["metadata"]
    out["interactions"] = [
        {"request": _request_out(i["request"]), "response": _response_out(i["response"])}
        for i in cassette_dict.get("interactions") or []
    ]
    return yaml.dump(out, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def _json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def deserialize(cassette_string: str) -> dict[str, Any]:
    """YAML text -> cassette data (VCR serializer protocol); metadata is left out, see above."""
    data = yaml.safe_load(cassette_string) or {}
    interactions = []
    for item in data.get("interactions") or []:
        request = dict(item["request"])
        body = request.get("body")
        if isinstance(body, dict) and "json" in body:
            request["body"] = _json_text(body["json"])
        response = dict(item["response"])
        rbody = response.get("body") or {}
        if isinstance(rbody, dict) and "json" in rbody:
            response["body"] = {"string": _json_text(rbody["json"])}
        interactions.append({"request": request, "response": response})
    return {"version": data.get("version", 1), "interactions": interactions}
