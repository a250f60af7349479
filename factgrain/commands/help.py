"""How the factgrain command prints its help: plain text (no reStructuredText markup from the
docstrings the descriptions are made of) and the default of every option."""

from __future__ import annotations

import argparse
import re

_ROLE = re.compile(r":(?:func|class|meth|mod|attr|data|exc):`~?([^`]+)`")
_LITERAL = re.compile(r"``(.+?)``", re.DOTALL)
_NO_HELP = "\x00"  # marks an option given without help: the formatter writes only its default


def plain(text: str | None) -> str | None:
    """``code`` -> code, :func:`name` -> name: the help is read in a terminal, not rendered."""
    if text is None:
        return None
    return _LITERAL.sub(r"\1", _ROLE.sub(r"\1", text))


def _shown(value: object) -> str:
    if value is None:
        return "not set"
    if value == "":
        return "empty"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value)) or "none"
    return str(value)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the description's paragraphs and adds ``(default: ...)`` to every option whose help
    does not already say its default."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = "" if action.help == _NO_HELP else (action.help or "")
        if (action.option_strings and action.default is not argparse.SUPPRESS
                and "default" not in text.lower() and not isinstance(action, (argparse._HelpAction,
                                                                              argparse._VersionAction))):
            text = f"{text} (default: {_shown(action.default)})".strip()
        return text.replace("%", "%%") if "%(" not in text else text


def _help_kwargs(args: tuple, kwargs: dict) -> dict:
    """Plain help text; an option without one still gets a line, so its default is shown."""
    text = kwargs.get("help")
    if text is argparse.SUPPRESS:
        return kwargs
    if text:
        kwargs["help"] = plain(text)
    elif args and str(args[0]).startswith("-"):
        kwargs["help"] = _NO_HELP  # argparse prints no help line (and no default) for a blank help
    return kwargs


class Parser(argparse.ArgumentParser):
    """The parser class of the factgrain command and every subcommand (``add_subparsers`` passes
    it on), so each command gets the same help style without repeating it."""

    def __init__(self, *args, **kwargs):
        kwargs["formatter_class"] = HelpFormatter
        for key in ("description", "epilog"):
            if kwargs.get(key):
                kwargs[key] = plain(kwargs[key])
        if kwargs.get("help"):
            kwargs["help"] = plain(kwargs["help"])
        super().__init__(*args, **kwargs)

    def add_argument(self, *args, **kwargs):
        return super().add_argument(*args, **_help_kwargs(args, kwargs))

    def add_argument_group(self, *args, **kwargs):
        group = super().add_argument_group(*args, **kwargs)
        add = group.add_argument

        def add_plain(*a, **kw):
            return add(*a, **_help_kwargs(a, kw))

        group.add_argument = add_plain  # type: ignore[method-assign]
        return group
