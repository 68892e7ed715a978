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
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None
    return parse_config(data, source=str(path), base_dir=path.resolve().parent)


def parse_config(data: Any, source: str = "<config>", base_dir: Path | None = None) -> AnonymizeConfig:
    if isinstance(data, dict) and ({"base_dir", "source_file"} & data.keys()):
        raise ConfigError(f"{source}: unknown key {sorted({'base_dir', 'source_file'} & data.keys())[0]}")
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: the config must be a mapping with keys source, output, attributes, privacy")
    data = _substitute(data, source, ())
    try:
        return AnonymizeConfig.model_validate({**data, "base_dir": base_dir or Path.cwd(), "source_file": source})
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
        where = _dotted(loc)
        if "url" in where:
            from ..engines.registry import mask_url

            value = mask_url(str(value)) if found else value
        shown = f" (value: {value!r})" if found and not isinstance(value, dict | list) else ""
        lines.append(f"{source}: {where}: {msg}{shown}")
    # One message per key is enough; union branches repeat themselves.
    return "\n".join(dict.fromkeys(lines))
