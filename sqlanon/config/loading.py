"""YAML loading: environment-variable substitution, then validation with precise messages."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from ..errors import ConfigError
from .models import AnonymizeConfig

_ENV = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def load_config(path: str | Path) -> AnonymizeConfig:
    """Read, substitute and validate a config file; raise ConfigError naming file, key and value."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: config file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read config file: {exc}") from None
    data = load_yaml(text, str(path))
    return parse_config(data, source=str(path), base_dir=path.resolve().parent)


def load_yaml(text: str, name: str) -> Any:
    """``yaml.safe_load`` that refuses duplicate keys and names the file ``name`` in every error.

    PyYAML lets the last of two equal keys win: ``age`` declared a quasi-identifier and again ``insensitive``
    copied raw ages to the output, and ``k: 5`` then ``k: 1`` ran with k = 1. Keys merged in with ``<<`` may be
    overridden, as YAML intends.
    """
    loader = yaml.SafeLoader(text)
    loader.name = name  # the marks of errors say "<unicode string>" otherwise
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _refuse_duplicate_keys(loader, node, (), name, set())
        return loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        raise ConfigError(_yaml_message(name, exc)) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{name}: not valid YAML: {exc}") from None
    finally:
        loader.dispose()


def _refuse_duplicate_keys(
    loader: yaml.SafeLoader, node: yaml.Node, path: tuple[Any, ...], name: str, visited: set[int]
) -> None:
    if id(node) in visited:  # an alias: checked where its anchor is (and an anchor may hold itself)
        return
    visited.add(id(node))
    if isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _refuse_duplicate_keys(loader, item, (*path, i), name, visited)
        return
    if not isinstance(node, yaml.MappingNode):
        return
    seen: dict[Any, int] = {}
    for key_node, value_node in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":
            continue
        key: Any = None
        if isinstance(key_node, yaml.ScalarNode):
            key = loader.construct_object(key_node)
            line = key_node.start_mark.line + 1
            try:
                first = seen.get(key)
            except TypeError:  # unhashable: the constructor words that error
                first = None
            if first is not None:
                lines = f"lines {first} and {line}" if first != line else f"line {line}, twice"
                where = f"under {_dotted(path)}" if path else "at the top level"
                raise ConfigError(f"{name}: duplicate key {key!r} at {lines} ({where})")
            seen[key] = line
        _refuse_duplicate_keys(loader, value_node, (*path, key), name, visited)


def _yaml_message(name: str, exc: yaml.MarkedYAMLError) -> str:
    """``c.yaml: line 3, column 2: not valid YAML: <problem> (<context> at line 2, column 4)`` and the line
    with a caret under the column."""
    mark = exc.problem_mark or exc.context_mark
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    text = f"{name}: {where}not valid YAML: {exc.problem or exc.context}"
    if exc.context and exc.problem:
        at = exc.context_mark
        text += f" ({exc.context}" + (f" at line {at.line + 1}, column {at.column + 1}" if at else "") + ")"
    snippet = mark.get_snippet() if mark is not None else None
    return text + (f"\n{snippet}" if snippet else "")


def parse_config(data: Any, source: str = "<config>", base_dir: Path | None = None) -> AnonymizeConfig:
    if isinstance(data, dict) and ({"base_dir", "source_file"} & data.keys()):
        raise ConfigError(f"{source}: unknown key {sorted({'base_dir', 'source_file'} & data.keys())[0]}")
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: the config must be a mapping with keys source, output, attributes, privacy")
    data = _substitute(data, source, ())
    return validate_config(data, source, base_dir or Path.cwd())


def validate_config(data: dict[str, Any], source: str, base_dir: Path) -> AnonymizeConfig:
    """The config model of the method ``data`` names (``method:``, default generalization), validated: a
    discriminated union whose tag picks the method's own model (``sqlanon.methods.config_class``)."""
    from ..methods import DEFAULT, config_class

    try:
        model = config_class(data.get("method", DEFAULT))
    except ConfigError as exc:
        raise ConfigError(f"{source}: {exc} (value: {data.get('method')!r})") from None
    try:
        return model.model_validate({**data, "base_dir": base_dir, "source_file": source})
    except ValidationError as exc:
        raise ConfigError(format_errors(source, exc, data)) from None


def _substitute(value: Any, source: str, key: tuple[Any, ...]) -> Any:
    if isinstance(value, dict):
        return {k: _substitute(v, source, (*key, k)) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, source, (*key, i)) for i, v in enumerate(value)]
    if isinstance(value, str):
        def repl(m: re.Match[str]) -> str:
            name = m.group(1)
            if name not in os.environ:
                raise ConfigError(
                    f"{source}: {_dotted(key)}: environment variable {name} is not set"
                )
            return os.environ[name]

        return _ENV.sub(repl, value)
    return value


def _dotted(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc) or "<top level>"


def _lookup(data: Any, loc: tuple[Any, ...]) -> tuple[bool, Any]:
    for part in loc:
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and part < len(data):
            data = data[part]
        else:
            return False, None
    return True, data


def format_errors(source: str, exc: ValidationError, data: Any) -> str:
    lines = []
    for err in exc.errors():
        # Drop pydantic's union-branch labels (e.g. 'float', 'int') from the location.
        loc = tuple(p for p in err["loc"] if p not in ("float", "int", "constrained-int"))
        found, value = _lookup(data, loc)
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            msg = "unknown key"
        if not loc and re.match(r"^[\w.\[\]]+: ", msg):  # a method's check of the whole config names its key itself
            lines.append(f"{source}: {msg}")
            continue
        where = _dotted(loc)
        if "url" in where:
            from ..engines.registry import mask_url

            value = mask_url(str(value)) if found else value
        shown = f" (value: {value!r})" if found and not isinstance(value, dict | list) else ""
        lines.append(f"{source}: {where}: {msg}{shown}")
    # One message per key is enough; union branches repeat themselves.
    return "\n".join(dict.fromkeys(lines))
