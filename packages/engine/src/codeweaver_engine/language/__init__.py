"""How the engine reads text: words and stems, script, Korean, prose and code, intent.

`words` (tokens, stopwords, stems, sentences), `script` (which language by script), `korean` (the
glossary reading of Korean questions), `prose` (a message without its code), `intent`
(debugging, learning or code review), `injection` (sentences that act on a model reading them,
withheld from answers and flagged in search results).
"""
