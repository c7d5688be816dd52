# The workbook's front door: every command a student, an instructor or a contributor types.
# The work is done by scripts under grader/, tests/ and book/, which can also be run on their own.
SHELL := /bin/bash
LESSON ?=
SUBMISSION ?= exercises
BACKEND ?= auto
ARGS ?=
CLASS ?=
JOBS ?=
# OUT only as given to make: an OUT in the environment (build scripts and job systems set one) would move
# a class's results out of build/class/.
ifeq ($(origin OUT),environment)
OUT :=
endif
OUT ?=
FORCE ?=
UNSAFE ?=
FORMAT ?= all
EDITION ?= student
WORKTREE ?=
SCHEDULER ?=
CHUNK ?=
BENCH ?=
N ?=
AGAINST ?=
ALLOW ?=
export BACKEND

.DEFAULT_GOAL := help
.PHONY: help check watch hint progress reset run grade gradebook gradescope dist test bench book listings doctor clean

help: ## this list
	@grader/help.sh

check: ## grade LESSON=N (every lesson without it); STEP=N grades that step alone (and step 1); SUBMISSION=DIR grades DIR/NN-*/; BACKEND=gpu|cpu|auto; ALLOW=NAME,... lets through what the policy on lesson code refuses
	@grader/check.sh $(LESSON) --submission "$(SUBMISSION)" --backend "$(BACKEND)" --allow "$(ALLOW)" $(if $(STEP),--steps "$(STEP)")

watch: ## grade LESSON=N again each time one of its files is saved (Ctrl-C stops)
	@WB_ALLOW="$(ALLOW)" grader/watch.sh $(LESSON) --submission "$(SUBMISSION)"

hint: ## hints for the steps of LESSON=N not yet passed (the lesson checked last without it)
	@grader/hint.sh $(LESSON)

progress: ## every lesson's steps: passed, failed, not tried (from the last checks)
	@grader/progress.sh

reset: ## restore LESSON=N's skeleton, saving your version under build/backups/
	@grader/reset.sh $(LESSON)

run: ## build and run your program for LESSON=N, with ARGS='...'
	@WB_ALLOW="$(ALLOW)" grader/run.sh $(LESSON) $(ARGS)

grade: ## instructors: grade CLASS=DIR (folders, .tar.gz, .zip, git repos) [LESSON=N JOBS=N OUT=DIR FORCE=1 UNSAFE=1 SCHEDULER=slurm CHUNK=N ALLOW=NAME,...] into build/class/NAME/NN-DATE/, and the class's course gradebook beside
	@grader/grade-class.sh "$(CLASS)" $(LESSON) --backend "$(BACKEND)" $(if $(JOBS),--jobs "$(JOBS)") $(if $(OUT),--out "$(OUT)") $(if $(ALLOW),--allow "$(ALLOW)") \
	  $(if $(filter-out 0,$(FORCE)),--force) $(if $(UNSAFE),--unsafe) $(if $(SCHEDULER),--scheduler "$(SCHEDULER)") $(if $(CHUNK),--chunk "$(CHUNK)")

gradebook: ## instructors: the course gradebook of CLASS=DIR: every student's latest result for every lesson graded, from all its runs (make grade updates it too) [build/class/NAME/gradebook.csv, course.html]
	@grader/class/course.sh "$(CLASS)"

gradescope: ## instructors: build/gradescope/autograder.zip, Gradescope's autograder (CPU backend) for LESSON=N (every lesson without it)
	@grader/course/gradescope.sh $(LESSON)

dist: ## instructors: the student release (no solutions/ or variants, a GitHub workflow running make check) in build/dist/
	@grader/course/dist.sh

test: ## the workbook's own tests (graders, solutions, variants, backends, book)
	@tests/run.sh

bench: ## ratios measured in one run: the CPU backend's speed (cpu/bench/), the trace's and grading's cost (grader/bench/); BENCH=class [N=100]: make grade's throughput, JOBS=2 against JOBS=1 (AGAINST=REV: this tree against REV)
ifeq ($(BENCH),class)
	@AGAINST="$(AGAINST)" grader/bench/class.sh $(or $(N),100) $(LESSON)
else
	@$(MAKE) -s -C cpu bench
	@grader/bench/run.sh $(LESSON)
endif

book: ## the chapters as HTML pages (build/book/index.html), one page, EPUB and PDF [FORMAT=html|epub|pdf EDITION=instructor WORKTREE=1 (edits not committed too: a preview)]
	@grader/setup.sh --quiet --book && book/build.sh --format "$(FORMAT)" --edition "$(EDITION)" $(if $(WORKTREE),--worktree)

listings: ## contributors: write into lessons/*.md the code each listing includes, so that chapters read in an editor or on GitHub show it
	@grader/setup.sh --quiet --book && python3 book/listings.py

doctor: ## check the CUDA toolkit, driver, GPU, grader tools and backend, with fixes
	@grader/doctor.sh

clean: ## remove build/ (your results and backups too)
	rm -rf build
