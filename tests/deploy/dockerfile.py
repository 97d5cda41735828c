"""Just enough of Docker's build semantics to replay the Dockerfile without a container engine.

`parse` reads the Dockerfile into stages of instructions; `context_files` applies .dockerignore
the way Docker does (the last matching pattern wins, `!` re-includes, a pattern that matches a
folder matches everything in it); `Replay` runs the stages on this machine, with every absolute
image path moved under a scratch folder that stands for the image's root filesystem.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Instruction:
    keyword: str
    flags: tuple[str, ...]
    value: str

    def exec_form(self) -> list[str]:
        argv = json.loads(self.value)
        if not (isinstance(argv, list) and all(isinstance(arg, str) for arg in argv)):
            raise ValueError(f"{self.keyword} is not in exec form: {self.value}")
        return argv


@dataclass
class Stage:
    base: str
    name: str | None
    instructions: list[Instruction] = field(default_factory=list)

    def all(self, keyword: str) -> list[Instruction]:
        return [ins for ins in self.instructions if ins.keyword == keyword]

    def last(self, keyword: str) -> Instruction | None:
        found = self.all(keyword)
        return found[-1] if found else None


def logical_lines(text: str) -> list[str]:
    """Lines with continuations joined and comments dropped, as Docker's parser sees them."""
    lines: list[str] = []
    pending = ""
    for raw in text.splitlines():
        if raw.strip().startswith("#"):
            continue
        if raw.rstrip().endswith("\\"):
            pending += raw.rstrip()[:-1] + " "
            continue
        line = (pending + raw).strip()
        pending = ""
        if line:
            lines.append(line)
    if pending.strip():
        lines.append(pending.strip())
    return lines


def parse(text: str) -> list[Stage]:
    stages: list[Stage] = []
    for line in logical_lines(text):
        keyword, _, rest = line.partition(" ")
        keyword = keyword.upper()
        flags: list[str] = []
        rest = rest.strip()
        while rest.startswith("--"):
            flag, _, rest = rest.partition(" ")
            flags.append(flag)
            rest = rest.strip()
        if keyword == "FROM":
            words = rest.split()
            name = words[2] if len(words) == 3 and words[1].upper() == "AS" else None
            stages.append(Stage(base=words[0], name=name))
            continue
        if not stages:
            raise ValueError(f"{keyword} before the first FROM")
        stages[-1].instructions.append(Instruction(keyword, tuple(flags), rest))
    return stages


# .dockerignore, with the semantics of Docker's pattern matcher.


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return re.compile(out)


@dataclass(frozen=True)
class IgnoreRule:
    regex: re.Pattern[str]
    text: str
    include: bool  # a `!` pattern


def ignore_rules(text: str) -> list[IgnoreRule]:
    rules = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        include = line.startswith("!")
        pattern = os.path.normpath(line.lstrip("!").strip()).lstrip("/")
        rules.append(IgnoreRule(_pattern_regex(pattern), pattern, include))
    return rules


def is_ignored(path: str, rules: list[IgnoreRule]) -> bool:
    parts = path.split("/")
    candidates = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    ignored = False
    for rule in rules:
        if any(rule.regex.fullmatch(candidate) for candidate in candidates):
            ignored = not rule.include
    return ignored


def context_files(root: Path) -> list[str]:
    """The files (relative, sorted) that `docker build` would send from `root`."""
    dockerignore = root / ".dockerignore"
    rules = ignore_rules(dockerignore.read_text()) if dockerignore.exists() else []
    reinclusions = [rule.text for rule in rules if rule.include]
    found: list[str] = []
    for folder, dirs, files in os.walk(root):
        rel = os.path.relpath(folder, root)
        prefix = "" if rel == "." else rel + "/"
        kept = []
        for name in sorted(dirs):
            path = prefix + name
            reachable = any(text.startswith(path + "/") or "*" in text for text in reinclusions)
            if not is_ignored(path, rules) or reachable:
                kept.append(name)
        dirs[:] = kept
        found += [prefix + name for name in files if not is_ignored(prefix + name, rules)]
    return sorted(found)


# Replaying the stages.

_VARIABLE = re.compile(r"\$(?:\{(\w+)\}|(\w+))")
_ABSOLUTE = re.compile(r"(?<![\w$}./-])/[\w.][\w./-]*")


def substitute(value: str, env: dict[str, str]) -> str:
    return _VARIABLE.sub(lambda m: env.get(m.group(1) or m.group(2), ""), value)


@dataclass
class Replay:
    """Runs a Dockerfile's stages here. `root` stands for the image's `/`."""

    context: Path
    root: Path
    base_env: dict[str, str]
    env: dict[str, str] = field(init=False)
    workdir: Path = field(init=False)
    user: str | None = None
    exposed: list[str] = field(default_factory=list)
    argv: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.env = dict(self.base_env)
        self.workdir = self.root

    def image_path(self, path: str) -> Path:
        return self.root / path.lstrip("/")

    def relocate(self, value: str) -> str:
        return _ABSOLUTE.sub(lambda m: str(self.image_path(m.group(0))), value)

    def run_stage(self, stage: Stage, log: Path) -> None:
        """Every stage starts from the base image's environment and `/`."""
        self.env = dict(self.base_env)
        self.workdir = self.root
        entrypoint: list[str] = []
        command: list[str] = []
        for ins in stage.instructions:
            if ins.keyword == "ENV":
                for word in shlex.split(substitute(self.relocate(ins.value), self.env)):
                    name, sep, value = word.partition("=")
                    if not sep:
                        raise ValueError(f"use ENV name=value, not {ins.value}")
                    self.env[name] = value
            elif ins.keyword == "WORKDIR":
                self.workdir = self.workdir / self.relocate(substitute(ins.value, self.env))
                self.workdir.mkdir(parents=True, exist_ok=True)
            elif ins.keyword == "COPY":
                self.copy(ins)
            elif ins.keyword == "RUN":
                self.run(ins, log)
            elif ins.keyword == "USER":
                self.user = ins.value
            elif ins.keyword == "EXPOSE":
                self.exposed += ins.value.split()
            elif ins.keyword == "ENTRYPOINT":
                entrypoint = ins.exec_form()
                command = []  # Docker resets CMD when ENTRYPOINT is set
            elif ins.keyword == "CMD":
                command = ins.exec_form()
            elif ins.keyword not in {"ARG", "LABEL", "STOPSIGNAL", "HEALTHCHECK"}:
                raise ValueError(f"the replay does not know {ins.keyword}")
        self.argv = entrypoint + command

    def copy(self, ins: Instruction) -> None:
        *sources, target = shlex.split(ins.value)
        if any(flag.startswith("--from=") for flag in ins.flags):
            # Both stages share `root` here, so copying a path onto itself is all there is.
            if sources != [target]:
                raise ValueError(f"the replay copies between stages only to the same path: {ins}")
            if not self.image_path(target).exists():
                raise ValueError(f"{target} was not built by an earlier stage")
            return
        dest = self.image_path(target) if target.startswith("/") else self.workdir / target
        for source in sources:
            origin = self.context / source
            if origin.is_dir():
                shutil.copytree(origin, dest, dirs_exist_ok=True)
            elif target.endswith("/"):
                dest.mkdir(parents=True, exist_ok=True)
                shutil.copy2(origin, dest / origin.name)
            else:
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(origin, dest)

    def run(self, ins: Instruction, log: Path) -> None:
        if ins.value.startswith("["):
            raise ValueError("RUN in exec form is not replayed")
        if _ABSOLUTE.search(ins.value):
            raise ValueError(f"RUN names an absolute image path; use an ENV variable: {ins}")
        with log.open("a") as out:
            out.write(f"\n$ {ins.value}\n")
            out.flush()
            done = subprocess.run(
                ["/bin/sh", "-c", ins.value],
                cwd=self.workdir,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=240,
            )
        if done.returncode != 0:
            raise AssertionError(f"RUN failed ({done.returncode}): {ins.value}\n{log.read_text()}")
