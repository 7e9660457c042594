"""Judge training: a quiz whose questions, variants and wrong answers the engine computes.

:mod:`judge.quiz.bank` makes the questions from the corpus's rulings and replays,
:mod:`judge.quiz.variants` the same questions with other numbers, :mod:`judge.quiz.mistakes`
the rules broken the way players break them, :mod:`judge.quiz.facts` the facts an answer
states, and :mod:`judge.quiz.export` tells them in each language (the site's quiz pages, its
JSON question bank and ``judge quiz``). docs/site.md explains how questions are made.
"""
