"""Reading systemd unit and environment files the way systemd does, for the subset the
deployment's units use (deploy/systemd/): so tests/deploy/test_deployment.py can run each
unit's ExecStart with its Environment= and EnvironmentFile= without systemd.

Rules followed (systemd.syntax(7), systemd.service(5), systemd.exec(5)):
- `[Section]` headers, `Key=Value` lines, `#` and `;` comment lines; a key given again adds a
  value (Environment=, ExecStartPost=), an empty assignment clears the list.
- Command lines: words split at whitespace, double and single quotes group words (a backslash
  escapes inside double quotes and outside quotes), specifiers `%i` (the instance) and `%%`;
  `${NAME}` is replaced in place (one word), a word `$NAME` alone becomes the value's
  whitespace-separated words, `$$` is a `$`; a `$NAME` inside a longer word is left for the
  program (a shell) to read from its environment.
- EnvironmentFile=: `KEY=VALUE` lines, `#`/`;` comment lines, a value in matching quotes
  unquoted; its variables override those of Environment= lines.
Anything outside that subset (other specifiers, line continuations, exec prefixes such as `-`)
raises ValueError, so a unit that grows beyond it fails the test instead of being misread."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_WHOLE_VARIABLE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass
class Unit:
    """A parsed unit file: section -> key -> the values given, in order."""

    name: str
    sections: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    def values(self, section: str, key: str) -> list[str]:
        return list(self.sections.get(section, {}).get(key, []))

    def value(self, section: str, key: str) -> str:
        """The one value of `key`; ValueError unless given exactly once."""
        found = self.values(section, key)
        if len(found) != 1:
            raise ValueError(f"{self.name}: [{section}] {key} given {len(found)} times")
        return found[0]


def parse_unit(text: str, name: str = "unit") -> Unit:
    unit = Unit(name)
    section: dict[str, list[str]] | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.endswith("\\"):
            raise ValueError(f"{name}:{number}: line continuations are not supported")
        if line.startswith("[") and line.endswith("]"):
            section = unit.sections.setdefault(line[1:-1], {})
            continue
        key, sep, value = line.partition("=")
        if not sep or section is None or not _KEY.fullmatch(key.strip()):
            raise ValueError(f"{name}:{number}: not a Key=Value line in a section: {raw!r}")
        values = section.setdefault(key.strip(), [])
        if value.strip():
            values.append(value.strip())
        else:
            values.clear()  # an empty assignment resets the list
    return unit


def _split_words(line: str) -> list[tuple[str, bool]]:
    """Words of a command line, each with whether any of it was quoted."""
    words: list[tuple[str, bool]] = []
    i, n = 0, len(line)
    while i < n:
        if line[i].isspace():
            i += 1
            continue
        word: list[str] = []
        quoted = False
        while i < n and not line[i].isspace():
            char = line[i]
            if char in "\"'":
                quoted = True
                end = i + 1
                while end < n and line[end] != char:
                    if char == '"' and line[end] == "\\" and end + 1 < n:
                        end += 1
                        word.append(line[end])
                    else:
                        word.append(line[end])
                    end += 1
                if end >= n:
                    raise ValueError(f"unterminated quote in {line!r}")
                i = end + 1
            elif char == "\\" and i + 1 < n:
                word.append(line[i + 1])
                i += 2
            else:
                word.append(char)
                i += 1
        words.append(("".join(word), quoted))
    return words


def _specifiers(word: str, instance: str | None) -> str:
    def replace(match: re.Match[str]) -> str:
        letter = match.group(1)
        if letter == "%":
            return "%"
        if letter == "i" and instance is not None:
            return instance
        raise ValueError(f"specifier %{letter} is not supported (in {word!r})")

    return re.sub(r"%(.)", replace, word)


def command_line(line: str, env: dict[str, str], instance: str | None = None) -> list[str]:
    """The argv systemd runs for an Exec*= value, in the environment `env`."""
    if line[:1] in "-@:+!":
        raise ValueError(f"exec prefixes are not supported: {line!r}")
    argv: list[str] = []
    for word, quoted in _split_words(line):
        word = _specifiers(word, instance)
        whole = _WHOLE_VARIABLE.fullmatch(word)
        if whole and not quoted:
            argv.extend(env.get(whole.group(1), "").split())
            continue
        word = _VARIABLE.sub(lambda m: env.get(m.group(1), ""), word)
        argv.append(word.replace("$$", "$"))
    return argv


def parse_environment_file(text: str) -> dict[str, str]:
    """The variables of an EnvironmentFile=."""
    env: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        key, sep, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not _KEY.fullmatch(key):
            raise ValueError(f"line {number}: not KEY=VALUE: {raw!r}")
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        env[key] = value
    return env


def unit_environment(unit: Unit, read_file: dict[str, str]) -> dict[str, str]:
    """The variables a unit's processes get from Environment= lines then EnvironmentFile=s
    (whose values win, as in systemd); `read_file` maps each EnvironmentFile= path to the
    contents to use for it."""
    env: dict[str, str] = {}
    for line in unit.values("Service", "Environment"):
        for assignment in command_line(line, {}):
            key, sep, value = assignment.partition("=")
            if not sep or not _KEY.fullmatch(key):
                raise ValueError(f"{unit.name}: not KEY=VALUE in Environment=: {assignment!r}")
            env[key] = value
    for path in unit.values("Service", "EnvironmentFile"):
        env.update(parse_environment_file(read_file[path]))
    return env


def load_unit(path: Path) -> Unit:
    return parse_unit(path.read_text(), path.name)
