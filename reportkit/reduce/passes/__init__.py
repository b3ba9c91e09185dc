"""Reduction passes for Python sources, shrinkray style.

Each pass is a small independent unit: a name, a function from the current source to
proposals, and the kind of search it needs (:mod:`reportkit.reduce.passes.kinds`: ddmin over
edits, each candidate in turn, a probe run then ddmin, a numeric search).  Passes never
run anything; the :class:`~reportkit.reduce.passes.kinds.Problem` they are given keeps a proposal
only if the predicate says the result is still interesting.  The round schedule in
:mod:`reportkit.reduce.schedule` runs the tuples at the end of this module.
"""

from __future__ import annotations

from typing import Callable

from .cosmetic import (
    drop_comments,
    drop_redundant_parens,
    join_short_statements,
    spread_starred_displays,
    tidy_imports,
    tidy_whitespace,
)
from .costly import CostlyPass
from .declass import class_module_candidates
from .edits import (
    BodySeq,
    Delete,
    DropAlias,
    Edit,
    ElementSeq,
    Splice,
    Together,
    apply_edits,
    apply_splices,
    to_splices,
    walk_bodies,
)
from .expressions import (
    NumericSite,
    call_elements,
    display_elements,
    format_number,
    inline_variable_candidates,
    numeric_literals,
    operand_text,
    propose_call_args,
    propose_display_elements,
    propose_literals_to_one,
    simplify_candidates,
)
from .hoist import hoist_candidates
from .hoist_calls import hoist_call_candidates
from .kinds import DdminPass, EachPass, FirstCutPass, NumericPass, Pass, ProbePass, Problem
from .materialize import instrument, materialize_edits, model_input_edits
from .nested import nested_module_candidates
from .pytest_cases import parametrize_case_candidates
from .qualify import qualify_import_candidates
from .readback import (
    argparse_default_candidates,
    display_copy_candidates,
    display_subscript_candidates,
    field_readback_candidates,
    lookup_table_candidates,
    unused_field_candidates,
)
from .scaffold import (
    class_function_candidates,
    data_literal_candidates,
    global_argument_candidates,
    one_element_candidates,
    readability_candidates,
    self_attr_build_candidates,
    self_attr_candidates,
    unused_defaults_of_values,
    unused_parameter_candidates,
)
from .shapes import partner_literals, shape_nodes
from .source import SourceMap, block_text, parses, reindent_lines
from .statements import (
    drop_docstrings,
    drop_target_candidates,
    inline_candidates,
    inline_expression_candidates,
    lazy_drop_target_candidates,
    lazy_inline_candidates,
    lazy_inline_expression_candidates,
    lazy_unwrap_candidates,
    loaded_names,
    propose_unused,
    statement_levels,
    tree_of,
    unread_targets,
    unwrap_candidates,
)
from .strings import propose_string_lines
from .trivial import empty_subclass_candidates, trivial_module_candidates
from .wrappers import (
    assert_test_candidates,
    class_constant_candidates,
    comprehension_loop_candidates,
    dataset_list_candidates,
    delegating_module_candidates,
    discarded_call_candidates,
    factory_candidates,
    forwarding_function_candidates,
    helper_inline_candidates,
    lambda_candidates,
    list_build_candidates,
    module_call_candidates,
    sequential_call_build_candidates,
    sequential_call_candidates,
)

UNUSED = DdminPass("unused", propose_unused, try_all_first=True, repeat=True)
DROP_TARGET = EachPass("drop-target", lazy_drop_target_candidates)
UNWRAP = EachPass("unwrap", lazy_unwrap_candidates)
INLINE = EachPass("inline", lazy_inline_candidates)
INLINE_EXPRESSIONS = EachPass("inline-expr", lazy_inline_expression_candidates)
ARGS = DdminPass("args", propose_call_args, sparse=True)  # most arguments are needed
SIMPLIFY = EachPass("simplify", simplify_candidates)
INLINE_VARIABLES = EachPass("inline-variables", inline_variable_candidates)
ELEMENTS = DdminPass("elements", propose_display_elements, by_sequence=True)
STRING_LINES = DdminPass("string-lines", propose_string_lines)
LITERALS_TO_ONE = DdminPass("literals-to-1", propose_literals_to_one, try_all_first=True)
SHRINK_LITERALS = NumericPass("shrink-literals", numeric_literals, groups=partner_literals)
MATERIALIZE = ProbePass("materialize", instrument, materialize_edits)
#: Run first in every round: materialize all values of a long program (or the last few) at once.
MATERIALIZE_FIRST_CUT = FirstCutPass(MATERIALIZE)
#: Where the values are the bug because a tensor operator in the script's own code raised (``out + res``):
#: only the data fed to torch models becomes random tensors of their shape (the data, not what the
#: model computed from it; reportkit.reduce.schedule.reduce_source's ``inputs``).
MODEL_INPUTS = ProbePass("model-inputs", instrument, model_input_edits)
MODEL_INPUTS_FIRST_CUT = FirstCutPass(MODEL_INPUTS)
HOIST = EachPass("hoist", hoist_candidates)
#: First thing of the first round: a top-level statement that took much of the run's time, deleted alone.
COSTLY = CostlyPass()
UNUSED_PARAMS = EachPass("unused-params", unused_parameter_candidates)
GLOBAL_ARGS = EachPass("global-args", global_argument_candidates)
PARAMETRIZE_CASES = EachPass("parametrize-case", parametrize_case_candidates)
ONE_ELEMENT = EachPass("one-element", one_element_candidates)
SELF_ATTRS = EachPass("self-attrs", self_attr_candidates)
SELF_ATTR_BUILDS = EachPass("self-attr-builds", self_attr_build_candidates)
CLASS_TO_FUNCTION = EachPass("class-to-function", class_function_candidates)
READABILITY = EachPass("readability", readability_candidates)
DATA_LITERALS = EachPass("data-literals", data_literal_candidates)
LIST_BUILDS = EachPass("list-builds", list_build_candidates)
SEQUENTIAL_CALLS = EachPass("sequential-calls", sequential_call_candidates)
SEQUENTIAL_CALL_BUILDS = EachPass("sequential-call-builds", sequential_call_build_candidates)
DELEGATING_MODULES = EachPass("delegating-modules", delegating_module_candidates)
TRIVIAL_MODULES = EachPass("trivial-modules", trivial_module_candidates)
EMPTY_SUBCLASSES = EachPass("empty-subclasses", empty_subclass_candidates)
NESTED_MODULES = EachPass("nested-modules", nested_module_candidates)
HELPERS = EachPass("inline-helpers", helper_inline_candidates)
FORWARDERS = EachPass("forwarders", forwarding_function_candidates)
LAMBDAS = EachPass("lambdas", lambda_candidates)
FACTORIES = EachPass("factories", factory_candidates)
DATASET_LISTS = EachPass("dataset-lists", dataset_list_candidates)
DISCARDED_CALLS = EachPass("discarded-calls", discarded_call_candidates)
#: Off when the failure is the script's own assertion (reportkit.reduce.schedule.reduce_source's ``assertion``).
ASSERT_TESTS = EachPass("assert-tests", assert_test_candidates)
COMPREHENSION_LOOPS = EachPass("comprehension-loops", comprehension_loop_candidates)
CLASS_CONSTANTS = EachPass("class-constants", class_constant_candidates)
MODULE_CALLS = EachPass("module-calls", module_call_candidates)
CLASS_TO_MODULE = EachPass("class-to-module", class_module_candidates)
DISPLAY_SUBSCRIPTS = EachPass("display-subscripts", display_subscript_candidates)
DISPLAY_COPIES = EachPass("display-copies", display_copy_candidates)
FIELD_READBACKS = EachPass("field-readbacks", field_readback_candidates)
UNUSED_FIELDS = EachPass("unused-fields", unused_field_candidates)
ARGPARSE_DEFAULTS = EachPass("argparse-defaults", argparse_default_candidates)
LOOKUP_TABLES = EachPass("lookup-tables", lookup_table_candidates)
HOIST_CALLS = EachPass("hoist-calls", hoist_call_candidates)
#: ``import torch`` + ``from torch.func import vmap`` -> ``import torch`` and ``torch.func.vmap`` (a final rider).
QUALIFY_IMPORTS = EachPass("qualify-imports", qualify_import_candidates)


def _single(fn: Callable[[str], str | None]) -> Callable[[str], list[str]]:
    def candidates(source: str) -> list[str]:
        result = fn(source)
        return [] if result is None or result == source else [result]

    candidates.__name__ = fn.__name__
    return candidates


DOCSTRINGS = EachPass("docstrings", _single(drop_docstrings))
COMMENTS = EachPass("comments", _single(drop_comments))
WHITESPACE = EachPass("whitespace", _single(tidy_whitespace))
IMPORTS = EachPass("imports", _single(tidy_imports))
PARENS = EachPass("parens", _single(drop_redundant_parens))
STARRED = EachPass("starred", _single(spread_starred_displays))
ONE_LINE = EachPass("one-line", _single(join_short_statements))
UNREAD_TARGETS = EachPass("unread-targets", _single(unread_targets))
UNUSED_DEFAULTS = EachPass("unused-defaults", _single(unused_defaults_of_values))

#: Run after HDD, repeated with it until nothing changes (cheap, high yield).
STRUCTURAL = (UNUSED, DROP_TARGET, UNWRAP, INLINE, INLINE_EXPRESSIONS)
#: Scaffolding a person removes by hand (modules around the failing op, unused parameters,
#: one-element containers): run once the structural passes converge, then those again.
SCAFFOLD = (PARAMETRIZE_CASES, GLOBAL_ARGS, UNUSED_PARAMS, UNUSED_FIELDS, ARGPARSE_DEFAULTS, ONE_ELEMENT, SELF_ATTRS, SELF_ATTR_BUILDS, CLASS_TO_FUNCTION, DATA_LITERALS,
            READABILITY, COMPREHENSION_LOOPS, ASSERT_TESTS, DISCARDED_CALLS, LIST_BUILDS, SEQUENTIAL_CALLS, SEQUENTIAL_CALL_BUILDS,
            DELEGATING_MODULES, TRIVIAL_MODULES, EMPTY_SUBCLASSES, NESTED_MODULES, HELPERS, FORWARDERS, LAMBDAS, FACTORIES, DATASET_LISTS, CLASS_CONSTANTS, MODULE_CALLS, CLASS_TO_MODULE,
            DISPLAY_COPIES, DISPLAY_SUBSCRIPTS, FIELD_READBACKS, LOOKUP_TABLES, HOIST_CALLS)
#: Finer-grained passes, run once the structure is stable.
FINE = (MATERIALIZE, MODEL_INPUTS, HOIST, ELEMENTS, STRING_LINES, INLINE_VARIABLES, ARGS, SIMPLIFY, LITERALS_TO_ONE, SHRINK_LITERALS)
#: Fine passes whose changes open up structural and scaffolding ones (an element less of a loop's
#: tuple, a variable inlined): when one of them changes anything, the round starts over before the finer
#: passes after it run on code those are about to remove. (Materialize and hoist too cost more than they
#: saved: measured, a restart after them re-ran HDD sweeps for little.)
RESHAPING = (ELEMENTS, INLINE_VARIABLES)
#: Passes that replace a computed value or a literal by another value, or a read of data by the value read
#: (``{"fast": {...}}["fast"]``, ``config["chunk"]``: the data the failing code looks up may be the bug, a
#: preset that overrides a default), or drop rows of data pasted as a string (a CSV's rows): off when the
#: values are the bug (an oracle, or a failure the script's own code raised: reportkit.reduce.minimize.keeps_values).
VALUE_PASSES = (MATERIALIZE, SIMPLIFY, LITERALS_TO_ONE, SHRINK_LITERALS, DISPLAY_SUBSCRIPTS, LOOKUP_TABLES,
                STRING_LINES)
#: Value passes that only drop data (rows of a text pasted as a string): on for an oracle too when a fix
#: check guards the cause (a row the bug needs cannot go: without it the candidate passes, or it fails on
#: the good code as well), off without one (reportkit.reduce.schedule.reduce_source's ``guarded``).
DATA_PASSES = (STRING_LINES,)
#: Passes that keep a computation as code but run it at each use (an object built once in ``__init__``
#: built where it is read): off when the failure compares computed values (random weights differ
#: between builds), on for a failure the script's own code raised (reportkit.reduce.schedule.reduce_source).
REBUILDING_PASSES = (SELF_ATTR_BUILDS, SEQUENTIAL_CALL_BUILDS, DATASET_LISTS)
#: Searches for smaller numbers: not run in a verifying round, and a round whose fine passes changed
#: numbers only does not start another (reportkit.reduce.schedule).
NUMBER_SEARCHES = (SHRINK_LITERALS,)
#: One try each at the very end.
FINAL = (COMMENTS, DOCSTRINGS, IMPORTS, PARENS, ONE_LINE, WHITESPACE)
#: Cosmetic changes tried only together with a change of the FINAL passes (in their one test), never alone:
#: worth no test of their own.
FINAL_RIDERS = (QUALIFY_IMPORTS, STARRED, UNREAD_TARGETS, UNUSED_DEFAULTS)
#: Passes that put code where a name, a call or an attribute read stood (one-use variables and functions,
#: helpers, ``self.x``, a record's fields, a lookup, an option's default, a delegating or factory call):
#: their candidates may not hold a statement more complex than the original's most complex one
#: (:mod:`reportkit.reduce.passes.complexity`, checked by :class:`reportkit.reduce.tester.Tester` before a
#: run). Not the passes that gather flat displays element by element (appends into a list, a dataset's
#: items), nor materialized values (data).
INLINING = (INLINE, INLINE_EXPRESSIONS, INLINE_VARIABLES, HELPERS, LAMBDAS, SELF_ATTRS, SELF_ATTR_BUILDS, FIELD_READBACKS,
            LOOKUP_TABLES, ARGPARSE_DEFAULTS, GLOBAL_ARGS, DELEGATING_MODULES, NESTED_MODULES, FACTORIES, SEQUENTIAL_CALLS,
            SEQUENTIAL_CALL_BUILDS, MODULE_CALLS, CLASS_CONSTANTS)

__all__ = [
    "ARGPARSE_DEFAULTS",
    "ARGS",
    "ASSERT_TESTS",
    "CLASS_CONSTANTS",
    "CLASS_TO_FUNCTION",
    "CLASS_TO_MODULE",
    "DATA_LITERALS",
    "DATA_PASSES",
    "DISPLAY_COPIES",
    "DISPLAY_SUBSCRIPTS",
    "FIELD_READBACKS",
    "GLOBAL_ARGS",
    "PARAMETRIZE_CASES",
    "LOOKUP_TABLES",
    "DATASET_LISTS",
    "DELEGATING_MODULES",
    "COMPREHENSION_LOOPS",
    "DISCARDED_CALLS",
    "FACTORIES",
    "HELPERS",
    "LAMBDAS",
    "HOIST_CALLS",
    "IMPORTS",
    "INLINING",
    "ONE_LINE",
    "PARENS",
    "QUALIFY_IMPORTS",
    "LIST_BUILDS",
    "MODULE_CALLS",
    "NESTED_MODULES",
    "SEQUENTIAL_CALLS",
    "SEQUENTIAL_CALL_BUILDS",
    "ONE_ELEMENT",
    "Pass",
    "READABILITY",
    "SCAFFOLD",
    "SELF_ATTRS",
    "STRING_LINES",
    "SELF_ATTR_BUILDS",
    "EMPTY_SUBCLASSES",
    "TRIVIAL_MODULES",
    "UNUSED_FIELDS",
    "UNUSED_PARAMS",
    "UNREAD_TARGETS",
    "UNUSED_DEFAULTS",
    "COMMENTS",
    "DOCSTRINGS",
    "DROP_TARGET",
    "ELEMENTS",
    "FINAL",
    "FINAL_RIDERS",
    "FINE",
    "COSTLY",
    "HOIST",
    "MATERIALIZE",
    "MATERIALIZE_FIRST_CUT",
    "MODEL_INPUTS",
    "MODEL_INPUTS_FIRST_CUT",
    "NUMBER_SEARCHES",
    "FirstCutPass",
    "ProbePass",
    "INLINE",
    "INLINE_VARIABLES",
    "LITERALS_TO_ONE",
    "SHRINK_LITERALS",
    "SIMPLIFY",
    "STARRED",
    "STRUCTURAL",
    "UNUSED",
    "UNWRAP",
    "VALUE_PASSES",
    "REBUILDING_PASSES",
    "RESHAPING",
    "WHITESPACE",
    "BodySeq",
    "DdminPass",
    "Delete",
    "DropAlias",
    "EachPass",
    "Edit",
    "ElementSeq",
    "NumericSite",
    "NumericPass",
    "Problem",
    "SourceMap",
    "Splice",
    "Together",
    "apply_edits",
    "apply_splices",
    "block_text",
    "call_elements",
    "class_constant_candidates",
    "comprehension_loop_candidates",
    "class_function_candidates",
    "class_module_candidates",
    "data_literal_candidates",
    "dataset_list_candidates",
    "delegating_module_candidates",
    "discarded_call_candidates",
    "display_copy_candidates",
    "display_subscript_candidates",
    "argparse_default_candidates",
    "field_readback_candidates",
    "unused_field_candidates",
    "lookup_table_candidates",
    "factory_candidates",
    "forwarding_function_candidates",
    "lambda_candidates",
    "helper_inline_candidates",
    "hoist_call_candidates",
    "list_build_candidates",
    "sequential_call_build_candidates",
    "sequential_call_candidates",
    "display_elements",
    "drop_comments",
    "drop_docstrings",
    "drop_target_candidates",
    "format_number",
    "inline_candidates",
    "inline_expression_candidates",
    "inline_variable_candidates",
    "loaded_names",
    "module_call_candidates",
    "nested_module_candidates",
    "numeric_literals",
    "one_element_candidates",
    "operand_text",
    "parses",
    "partner_literals",
    "shape_nodes",
    "propose_call_args",
    "propose_display_elements",
    "propose_literals_to_one",
    "propose_unused",
    "qualify_import_candidates",
    "readability_candidates",
    "reindent_lines",
    "self_attr_build_candidates",
    "self_attr_candidates",
    "simplify_candidates",
    "spread_starred_displays",
    "statement_levels",
    "tree_of",
    "tidy_whitespace",
    "to_splices",
    "empty_subclass_candidates",
    "trivial_module_candidates",
    "unused_defaults_of_values",
    "unused_parameter_candidates",
    "global_argument_candidates",
    "parametrize_case_candidates",
    "unread_targets",
    "unwrap_candidates",
    "walk_bodies",
]
