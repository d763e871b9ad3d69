"""The one reader of JSON Lines files: every JSONL input of the project goes through it.

Lines are split on "\\n" only (JSON allows a raw U+2028 or U+0085 inside a string, which
str.splitlines would cut), and every way a line can fail to parse (bad UTF-8, bad JSON, an
integer over Python's 4,300-digit limit, nesting deep enough to exhaust the stack) becomes
one JsonlError naming the file and the line.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


class JsonlError(ValueError):
    """A JSONL file that cannot be read; the message names the file (and line) and why."""


def read_jsonl(path: Path | str) -> Iterator[tuple[int, Any]]:
    """(line number, parsed value) for each non-blank line; *.gz files are decompressed."""
    path = Path(path)
    number = 0
    try:
        with gzip.open(path, "rb") if path.suffix == ".gz" else path.open("rb") as handle:
            for number, raw in enumerate(handle, 1):  # binary lines end at b"\n" only
                if raw.strip():
                    yield number, parse_json_line(raw, f"{path}:{number}")
    except (OSError, EOFError, zlib.error) as error:
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        where = f"{path}" if number == 0 else f"{path}: after line {number}"
        raise JsonlError(f"{where}: {reason}") from None


def parse_json_line(raw: bytes | str, where: str) -> Any:
    """One JSON value, or JsonlError saying where and why it is not one."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise JsonlError(f"{where}: not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise JsonlError(f"{where}: not valid JSON ({error.msg})") from None
    except RecursionError:
        raise JsonlError(f"{where}: not valid JSON (nested too deeply)") from None
    except ValueError as error:  # e.g. an integer longer than 4,300 digits
        reason = str(error).split(";")[0].split(":")[0]
        raise JsonlError(f"{where}: not valid JSON ({reason})") from None


def parse_jsonl(path: Path | str, parse: Callable[[Any], T],
                error: Callable[[str], Exception]) -> list[T]:
    """Every line's value through `parse`; a line that is not JSON, or that `parse` refuses
    with a ValueError, becomes `error` naming the file and the line."""
    parsed: list[T] = []
    try:
        for number, value in read_jsonl(path):
            try:
                parsed.append(parse(value))
            except ValueError as exc:
                raise error(f"{path}:{number}: {exc}") from None
    except JsonlError as exc:
        raise error(str(exc)) from None
    return parsed


def read_jsonl_objects(path: Path | str) -> Iterator[tuple[int, dict[str, Any]]]:
    """As read_jsonl, for files whose every line must be a JSON object."""
    for number, value in read_jsonl(path):
        if not isinstance(value, dict):
            raise JsonlError(f"{path}:{number}: each line must be a JSON object")
        yield number, value
