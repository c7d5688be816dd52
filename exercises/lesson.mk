# lesson.mk: what each exercise folder's Makefile includes, so that `make check` (and hint, run, watch,
# reset) typed inside exercises/NN-name/ grades that lesson, as `make check LESSON=NN` does at the top.
LESSON := $(firstword $(subst -, ,$(notdir $(CURDIR))))
.DEFAULT_GOAL := check
.PHONY: check hint run watch reset progress
check hint run watch reset progress:
	@$(MAKE) --no-print-directory -C ../.. $@ LESSON=$(LESSON)
