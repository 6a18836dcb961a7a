"""An ``ast`` scan that keeps the core's sentences translatable (a plain module, used by
tests/test_messages.py).

For one source file it checks that every KvcalcError the file constructs is given a
:class:`~kvcalc.messages.Text` (not an f-string or plain words), and that every
``Text("key", ...)`` names a key of the catalog with exactly its template's fields, with no
string assembled into a parameter and every sentence parameter a Text itself. "Is a Text" is
decided statically: a ``Text(...)`` call; a conditional of two; a name every assignment of which
is one (a parameter: every call in the module passes one); an item of a dict literal whose values
all are; a call of a module function whose every non-None ``return`` is one; a value on a line
marked ``# Text: <why>``.
"""

from __future__ import annotations

import ast

from kvcalc.errors import ConfigError, KvcalcError, SettingsError
from kvcalc.messages import template_fields

SENTENCE_PARAMS = frozenset({"problem", "what", "hint", "reason"})
"""Text parameters that are sentences themselves, so must be Text (rendered in the same language)."""


class _Module:
    def __init__(self, source: str) -> None:
        self.lines = source.splitlines()
        self.tree = ast.parse(source)
        self.parents = {c: n for n in ast.walk(self.tree) for c in ast.iter_child_nodes(n)}
        self.functions = {n.name: n for n in self.tree.body if isinstance(n, ast.FunctionDef)}

    def marked(self, node: ast.AST) -> bool:
        """A value whose line says ``# Text: <why>``, for what the scan cannot see (an exception's
        message that was raised as a Text in another module)."""
        line = getattr(node, "lineno", 0)
        return 0 < line <= len(self.lines) and "# Text:" in self.lines[line - 1]

    def scope_of(self, node: ast.AST) -> ast.AST:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return node
        return self.tree

    def is_text(self, node: ast.AST | None, scope: ast.AST, seen: frozenset = frozenset()) -> bool:
        if node is not None and self.marked(node):
            return True
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id in ("Text", "Translated"):
                return True
            return self._returns_text(node.func, seen)
        if isinstance(node, ast.IfExp):
            return self.is_text(node.body, scope, seen) and self.is_text(node.orelse, scope, seen)
        if isinstance(node, ast.Name):
            if node.id in seen:
                return False
            key = f"{id(scope)}:{node.id}"
            for where in (scope, self.tree):
                if self._is_param(where, node.id):
                    return self._param_is_text(where, node.id, seen | {node.id, key})
                values = _assigned(where, node.id)
                if values:
                    return all(self.is_text(v, where, seen | {node.id}) for v in values)
            return False
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            values = _assigned(self.tree, node.value.id)
            return bool(values) and all(
                isinstance(v, ast.Dict) and v.values
                and all(self.is_text(x, self.tree, seen | {node.value.id}) for x in v.values)
                for v in values)
        return False

    def _returns_text(self, func: ast.AST, seen: frozenset) -> bool:
        name = func.id if isinstance(func, ast.Name) else None
        fn = self.functions.get(name) if name else None
        if fn is None or name in seen:
            return False
        returns = [n.value for n in ast.walk(fn) if isinstance(n, ast.Return)
                   and not (n.value is None or (isinstance(n.value, ast.Constant) and n.value.value is None))]
        return bool(returns) and all(self.is_text(v, fn, seen | {name}) for v in returns)

    @staticmethod
    def _is_param(where: ast.AST, name: str) -> bool:
        if not isinstance(where, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        a = where.args
        return any(p.arg == name for p in a.posonlyargs + a.args + a.kwonlyargs)

    def _param_is_text(self, fn: ast.FunctionDef, name: str, seen: frozenset) -> bool:
        """A parameter is a Text when every call of the function in this module passes one."""
        params = [p.arg for p in fn.args.posonlyargs + fn.args.args]
        calls = [n for n in ast.walk(self.tree) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Name) and n.func.id == fn.name]
        if not calls:
            return False
        for call in calls:
            given = {k.arg: k.value for k in call.keywords}
            if name in params and params.index(name) < len(call.args):
                given[name] = call.args[params.index(name)]
            if not self.is_text(given.get(name), self.scope_of(call), seen):
                return False
        return True

    def settings_values(self, arg: ast.AST, scope: ast.AST) -> list[ast.AST | None]:
        """What a SettingsError's problems dict holds: a literal's values, a comprehension's
        value, or every ``name[...] = value`` of a dict built up in the function."""
        if isinstance(arg, ast.Dict):
            return list(arg.values)
        if isinstance(arg, ast.DictComp):
            return [arg.value]
        if isinstance(arg, ast.Name):
            values = [n.value for n in ast.walk(scope) if isinstance(n, ast.Assign)
                      for t in n.targets if isinstance(t, ast.Subscript)
                      and isinstance(t.value, ast.Name) and t.value.id == arg.id]
            literals = [v for v in _assigned(scope, arg.id) if isinstance(v, ast.Dict)]
            return values + [x for d in literals for x in d.values] if values or literals else [arg]
        return [arg]


def _assigned(where: ast.AST, name: str) -> list[ast.AST | None]:
    """Values assigned to ``name`` directly in ``where`` (not in nested functions); a loop or
    ``with`` target makes it unknowable (None)."""
    values: list[ast.AST | None] = []
    stack = list(where.body) if isinstance(where, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)) else []
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Assign):
            if any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
                values.append(node.value)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
            if isinstance(node.target, ast.Name) and node.target.id == name:
                values.append(node.value if not isinstance(node, ast.AugAssign) else None)
        elif isinstance(node, (ast.For, ast.With, ast.comprehension)):
            targets = [node.target] if not isinstance(node, ast.With) else [i.optional_vars for i in node.items]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                values.append(None)
        stack.extend(ast.iter_child_nodes(node))
    return values


def _error_class(func: ast.AST, namespace: dict) -> type | None:
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    cls = namespace.get(name) if name else None
    return cls if isinstance(cls, type) and issubclass(cls, KvcalcError) else None


def _assembles_a_string(node: ast.AST) -> bool:
    """An f-string, or ``+`` / ``%`` with a string on one side (arithmetic on numbers is fine)."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return any(isinstance(s, ast.JoinedStr) or (isinstance(s, ast.Constant) and isinstance(s.value, str))
                   or _assembles_a_string(s) for s in (node.left, node.right))
    return False


def _keys(node: ast.AST) -> list[str] | None:
    """The message keys a ``Text(...)`` call can name: a literal, or a conditional of two."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        a, b = _keys(node.body), _keys(node.orelse)
        return a + b if a is not None and b is not None else None
    return None


def check_source(source: str, namespace: dict, catalog: dict[str, tuple[str, str]],
                 dynamic_prefixes: tuple[str, ...] = ()) -> tuple[list[str], int]:
    """(problems, error constructions checked) for one file. ``dynamic_prefixes``: key prefixes a
    module may build with an f-string because it registers those keys itself (the rule table)."""
    m = _Module(source)
    problems: list[str] = []
    checked = 0
    for node in ast.walk(m.tree):
        if not isinstance(node, ast.Call):
            continue
        where = f"line {node.lineno}"
        scope = m.scope_of(node)
        cls = _error_class(node.func, namespace)
        if cls is not None:
            checked += 1
            if issubclass(cls, ConfigError):
                kw = {k.arg: k.value for k in node.keywords}
                messages = [node.args[1] if len(node.args) > 1 else kw.get("problem")]
            else:
                first = node.args[0] if node.args else (node.keywords[0].value if node.keywords else None)
                messages = m.settings_values(first, scope) if issubclass(cls, SettingsError) else [first]
            if not all(m.is_text(msg, scope) for msg in messages):
                problems.append(f"{where}: {cls.__name__} is not given a Text")
        if not (isinstance(node.func, ast.Name) and node.func.id == "Text"):
            continue
        if len(node.args) != 1:
            problems.append(f"{where}: Text takes exactly one key")
            continue
        arg = node.args[0]
        if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant) \
                and str(arg.values[0].value).startswith(dynamic_prefixes or ("\0",)):
            continue
        keys = _keys(arg)
        if keys is None:
            problems.append(f"{where}: Text needs a literal key")
            continue
        names = [k.arg for k in node.keywords]
        for key in keys:
            if key not in catalog:
                problems.append(f"{where}: {key!r} is not a message key")
                continue
            english, chinese = catalog[key]
            if None in names or set(names) != template_fields(english) or set(names) != template_fields(chinese):
                problems.append(f"{where}: {key!r} takes {sorted(template_fields(english))}, given {names}")
        for k in node.keywords:
            if _assembles_a_string(k.value):
                problems.append(f"{where}: parameter {k.arg} is an assembled string")
            elif k.arg in SENTENCE_PARAMS and not m.is_text(k.value, scope):
                problems.append(f"{where}: parameter {k.arg} is not a Text")
    return problems, checked
