"""JUnit XML for CI systems: a test suite per suite x provider x prompt, a test case per row."""

from __future__ import annotations

import io
import json
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from evals.runner.summary import GroupResult
from pipeline.files import write_output


def write_junit(path: Path, rows: Iterable[dict[str, Any]], groups: list[GroupResult]) -> None:
    """Write the rows and each group's gate as JUnit XML."""
    by_group: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_group[(row["suite"], row["provider"], row["variant"])].append(row)
    root = ET.Element("testsuites", name="converse eval")
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for group in groups:
        members = by_group[(group.suite, group.provider, group.variant)]
        name = f"{group.suite}[{group.provider}" + (
            f",{group.variant}]" if group.variant != "active" else "]"
        )
        failures = sum(1 for r in members if r["status"] == "fail") + (not group.gate_passed)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=name,
            tests=str(len(members) + 1),
            failures=str(failures),
            errors=str(group.errors),
            time=f"{sum(float(r.get('latency_ms') or 0) for r in members) / 1000:.3f}",
        )
        ET.SubElement(suite, "properties")
        props = suite.find("properties")
        assert props is not None
        ET.SubElement(props, "property", name="provider", value=group.label)
        ET.SubElement(props, "property", name="model", value=group.model)
        ET.SubElement(
            props, "property", name="critical_failures", value=str(group.critical_failures)
        )
        if group.sample:  # `--sample`: the suite's cases were a sample
            ET.SubElement(props, "property", name="sample", value=group.sample_label())
        for row in members:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=f"{group.suite}.{group.provider}",
                name=f"{row['case_id']}" + (f"@epoch{row['epoch']}" if row["epoch"] else ""),
                time=f"{float(row.get('latency_ms') or 0) / 1000:.3f}",
            )
            if row["status"] == "fail":
                failure = ET.SubElement(case, "failure", message=row.get("why") or "failed")
                failure.text = (
                    f"expected: {json.dumps(row.get('expected'), ensure_ascii=False)}\n"
                    f"got: {json.dumps(row.get('got'), ensure_ascii=False)}"
                )
            elif row["status"] == "error":
                ET.SubElement(case, "error", message=row.get("error") or "error")
        gate_case = ET.SubElement(
            suite, "testcase", classname=f"{group.suite}.{group.provider}", name="gate"
        )
        if not group.gate_passed:
            ET.SubElement(gate_case, "failure", message="; ".join(group.gate_failures))
        totals["tests"] += len(members) + 1
        totals["failures"] += failures
        totals["errors"] += group.errors
    for key, value in totals.items():
        root.set(key, str(value))
    buffer = io.BytesIO()
    ET.ElementTree(root).write(buffer, encoding="utf-8", xml_declaration=True)
    write_output(path, buffer.getvalue(), "JUnit XML")
