"""What reaches a cassette: allowlisted headers, readable bodies, nothing that names an account."""

from __future__ import annotations

import json

import pytest
from vcr.request import Request

from evals.cassettes import find_secrets, scrub_request, scrub_response
from evals.cassettes.serializer import deserialize, serialize


def test_request_headers_are_kept_by_allowlist_and_the_loopback_is_named() -> None:
    request = Request(
        "POST",
        "http://127.0.0.1:52311/v1/messages?beta=true",
        b"{}",
        {
            "x-api-key": "sk-ant-api03-secret",
            "authorization": "Bearer abc",
            "content-type": "application/json",
            "anthropic-version": "2023-06-01",
            "x-stainless-os": "Linux",
            "x-converse-prompts": "classifier/v1=abc",
        },
    )
    scrubbed = scrub_request(request)
    assert scrubbed.uri == "http://synthetic-loopback/v1/messages?beta=true"
    assert dict(scrubbed.headers) == {
        "content-type": "application/json",
        "anthropic-version": "2023-06-01",
        "x-converse-prompts": "classifier/v1=abc",
    }


def test_response_headers_that_identify_an_account_are_dropped() -> None:
    response = {
        "status": {"code": 429, "message": "Too Many Requests"},
        "headers": {
            "content-type": ["application/json"],
            "anthropic-organization-id": ["org-123"],
            "request-id": ["req_123"],
            "retry-after": ["30"],
            "set-cookie": ["session=1"],
        },
        "body": {"string": b"{}"},
    }
    assert scrub_response(response)["headers"] == {
        "content-type": ["application/json"],
        "retry-after": ["30"],
    }


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("key: sk-ant-api03-AbCdEf123456", ["an Anthropic API key"]),
        ("      x-api-key:\n      - k", ["an x-api-key header"]),
        ("    Authorization: x", ["an authorization header"]),
        ("token Bearer abcdefghijklmnop", ["a bearer token"]),
        ("anthropic-organization-id: o", ["an organisation id header"]),
        ("prose about authorization and keys", []),
    ],
)
def test_the_secret_scan(text: str, found: list[str]) -> None:
    assert find_secrets(text) == found


def test_json_bodies_are_stored_as_yaml_and_read_back_as_json() -> None:
    body = {"system": [{"type": "text", "text": "line one\nline two"}], "max_tokens": 5}
    data = {
        "version": 1,
        "metadata": {"converse": {"synthetic": True}},
        "interactions": [
            {
                "request": {
                    "method": "POST",
                    "uri": "http://synthetic-loopback/v1/messages",
                    "headers": {"content-type": ["application/json"]},
                    "body": json.dumps(body),
                },
                "response": {
                    "status": {"code": 200, "message": "OK"},
                    "headers": {},
                    "body": {"string": "<html>not json</html>"},
                },
            }
        ],
    }
    text = serialize(data)
    assert "text: |-\n" in text and "line one\n" in text  # prompts read as text, not escapes
    loaded = deserialize(text)
    assert "metadata" not in loaded  # kept in the file, not handed to pytest-recording
    [interaction] = loaded["interactions"]
    assert json.loads(interaction["request"]["body"]) == body
    assert interaction["response"]["body"] == {"string": "<html>not json</html>"}
