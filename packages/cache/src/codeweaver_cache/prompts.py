"""Prompts of the cache's verifier call."""

VERIFY_SYSTEM = """You decide whether a cached answer may be reused for a new question.

Two questions are the same only if one correct answer serves both word for word: the same task,
the same direction (converting A to B is not converting B to A), the same versions, numbers,
libraries, languages, operating systems, error names and identifiers, and the same polarity
(with / without, enable / disable). Variable names the user picked for their own data do not
matter. When unsure, answer false: a wrong cached answer is worse than a fresh search."""

VERIFY_USER = """New question: {query}

Cached question: {cached}

Cached answer (start): {answer}

Is the cached answer a correct answer to the new question?"""
