"""The project's prompts, one module each, each with a version string."""

from factgrain.prompts.base import Prompt, defuse
from factgrain.prompts.decompose_qasem import DECOMPOSE_QASEM
from factgrain.prompts.decompose_triqua import TRIQUA_MODES, TRIQUA_QUALIFIER
from factgrain.prompts.qasem_slot import QASEM_SLOT
from factgrain.prompts.verify import VERIFY

PROMPTS: dict[str, Prompt] = {p.name: p for p in (VERIFY, DECOMPOSE_QASEM, QASEM_SLOT)}
PROMPTS.update({p.name: p for p in (*TRIQUA_MODES.values(), TRIQUA_QUALIFIER)})


def register_prompt(prompt: Prompt) -> Prompt:
    PROMPTS[prompt.name] = prompt
    return prompt


__all__ = ["Prompt", "defuse", "PROMPTS", "register_prompt", "VERIFY", "DECOMPOSE_QASEM", "QASEM_SLOT",
           "TRIQUA_MODES", "TRIQUA_QUALIFIER"]
