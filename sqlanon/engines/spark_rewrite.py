"""UPDATE and DELETE on Spark's scratch views, as the query whose rows replace the view's.

Spark's scratch tables are local checkpoints under temporary views (``spark.py``), which take no UPDATE or DELETE.
The methods that refine a scratch table step by step (microaggregation's groups, local recoding's classes) write
the common templates' statements; the adapter runs each as the view's new rows, computed from the old ones and
checkpointed under the same name:

* ``UPDATE t [AS a] SET c = e, ... [WHERE p]``: every column of ``t``, the set ones as
  ``CASE WHEN p THEN e ELSE c END`` (a NULL ``p`` updates nothing, as in SQL);
* ``UPDATE t [AS a] SET c = e, ... FROM s AS x WHERE p``: ``t LEFT JOIN s ON p``, the set ones taken where a row
  of ``s`` joined. As in PostgreSQL, ``p`` must match a row of ``t`` with one row of ``s`` at most (the templates
  join on a key); a second one would be a second row here;
* ``DELETE FROM t WHERE p``: the rows for which ``p`` is not true.

The statement's parts keep their order in the query (SET's expressions, then FROM's source, then WHERE's
predicate), so its ``?`` parameters bind as they are. The parts are found at the statement's top level (outside
parentheses, literals, quoted names and comments); the templates write the keywords in upper case.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from ..errors import EngineError

#: Spark's literals, quoted names and comments (``spark._QUOTED``), IS [NOT] DISTINCT FROM (whose FROM is no
#: clause), parentheses, commas and the clause words.
_TOKENS = re.compile(r"'(?:[^'\\]|\\.)*'|`(?:[^`]|``)*`|--[^\n]*|/\*.*?\*/|\bDISTINCT\s+FROM\b|(\()|(\))|(,)|"
                     r"\b(SET|FROM|WHERE|AS)\b", re.DOTALL)
_UPDATE = re.compile(r"UPDATE\s+(`(?:[^`]|``)+`)(?:\s+AS\s+(\w+|`(?:[^`]|``)+`))?\s+SET\s", re.DOTALL)
_DELETE = re.compile(r"DELETE\s+FROM\s+(`(?:[^`]|``)+`)\s+WHERE\s", re.DOTALL)
_ASSIGNMENT = re.compile(r"\s*(\w+|`(?:[^`]|``)+`)\s*=(.*)\Z", re.DOTALL)
#: The clauses of an UPDATE in the order they must come.
_ORDER = {"SET": 0, "FROM": 1, "WHERE": 2}
#: The column the rewritten queries add: whether the row is one the statement changes.
HIT = "sqlanon_hit"


def target(statement: str) -> str | None:
    """The quoted name an UPDATE or DELETE statement changes, else None.

    >>> target("UPDATE `t` AS z SET a = 1"), target("DELETE FROM `t` WHERE a"), target("SELECT 1")
    ('`t`', '`t`', None)
    """
    match = _UPDATE.match(statement) or _DELETE.match(statement)
    return match.group(1) if match else None


def rewrite(statement: str, columns: Sequence[tuple[str, str]]) -> str:
    """The query whose rows are ``statement``'s table after it ran; ``columns`` are the table's (quoted name,
    Spark type) in order.

    >>> cols = [("`rid`", "bigint"), ("`grp`", "int")]
    >>> print(rewrite("UPDATE `t` SET grp = ? WHERE rid = ?", cols))
    SELECT `t`.`rid`, CAST(CASE WHEN sqlanon_hit THEN (?) ELSE `t`.`grp` END AS int) AS `grp`
    FROM (SELECT *, coalesce((rid = ?), FALSE) AS sqlanon_hit FROM `t`) AS `t`
    >>> print(rewrite("DELETE FROM `t` WHERE grp IN (SELECT 1)", cols))
    SELECT `t`.`rid`, `t`.`grp`
    FROM (SELECT *, coalesce((grp IN (SELECT 1)), FALSE) AS sqlanon_hit FROM `t`) AS `t` WHERE NOT sqlanon_hit
    """
    update = _UPDATE.match(statement)
    if update is None:
        delete = _DELETE.match(statement)
        if delete is None:
            raise EngineError("Spark runs UPDATE and DELETE on scratch tables only in their simple forms")
        table, predicate = delete.group(1), statement[delete.end():].strip()
        return (f"SELECT {', '.join(f'{table}.{name}' for name, _ in columns)}\n"
                f"FROM (SELECT *, coalesce(({predicate}), FALSE) AS {HIT} FROM {table}) AS {table} "
                f"WHERE NOT {HIT}")
    table, alias = update.group(1), update.group(2)
    clauses = _clauses(statement[update.end():])
    assignments = _assignments(clauses["SET"])
    unknown = sorted(set(assignments) - {name.lower() for name, _ in columns})
    if unknown:
        raise EngineError(f"UPDATE of {table}: no column {unknown[0]}")
    row = alias or table
    source = clauses.get("FROM")
    relation, joined = _split_alias(source) if source is not None else ("", "")
    flag = f"{joined}.{HIT}" if source is not None else HIT
    listed = ", ".join(
        f"CAST(CASE WHEN {flag} THEN ({assignments[name.lower()]}) ELSE {row}.{name} END AS {kind}) AS {name}"
        if name.lower() in assignments else f"{row}.{name}"
        for name, kind in columns)
    named = f"{table} AS {alias}" if alias else table
    predicate = clauses.get("WHERE", "TRUE").strip()
    if source is None:
        return f"SELECT {listed}\nFROM (SELECT *, coalesce(({predicate}), FALSE) AS {HIT} FROM {named}) AS {row}"
    return (f"SELECT {listed}\nFROM {named} LEFT JOIN (SELECT *, TRUE AS {HIT} FROM {relation} AS sqlanon_source) "
            f"AS {joined} ON {predicate}")


def _top_level(text: str) -> list[tuple[int, int, str]]:
    """(start, end, word) of each clause word and comma outside parentheses, literals, quoted names, comments."""
    found, depth = [], 0
    for match in _TOKENS.finditer(text):
        if match.group(1):
            depth += 1
        elif match.group(2):
            depth -= 1
        elif depth == 0 and (match.group(3) or match.group(4)):
            found.append((match.start(), match.end(), match.group(0)))
    return found


def _clauses(text: str) -> dict[str, str]:
    """The SET list (the text before FROM or WHERE), FROM's source and WHERE's predicate of an UPDATE."""
    marks = [(start, end, word) for start, end, word in _top_level(text) if word in ("FROM", "WHERE")]
    clauses, previous, name = {}, 0, "SET"
    for start, end, word in marks:
        if _ORDER[word] <= _ORDER[name]:
            raise EngineError(f"UPDATE on Spark: unexpected {word}")
        clauses[name], previous, name = text[previous:start], end, word
    clauses[name] = text[previous:]
    if "FROM" in clauses and "WHERE" not in clauses:
        raise EngineError("UPDATE ... FROM on Spark needs a WHERE that joins the source")
    return clauses


def _assignments(text: str) -> dict[str, str]:
    """SET's ``column = expression`` pairs by the column's name in lower case (Spark's names compare so)."""
    cuts = [0] + [end for _, end, word in _top_level(text) if word == ","] + [len(text) + 1]
    pairs = {}
    for start, end in pairwise(cuts):
        part = text[start:end - 1]
        match = _ASSIGNMENT.match(part)
        if match is None:
            raise EngineError(f"UPDATE on Spark: cannot read the assignment {part.strip()!r}")
        name = match.group(1)
        key = (name[1:-1].replace("``", "`") if name.startswith("`") else name).lower()
        pairs[f"`{key.replace('`', '``')}`"] = match.group(2).strip()
    return pairs


def _split_alias(source: str) -> tuple[str, str]:
    """(relation, alias) of FROM's ``relation AS alias``."""
    marks = [start for start, _, word in _top_level(source) if word == "AS"]
    if not marks:
        raise EngineError("UPDATE ... FROM on Spark needs its source named with AS")
    return source[:marks[-1]].strip(), source[marks[-1] + 2:].strip()
