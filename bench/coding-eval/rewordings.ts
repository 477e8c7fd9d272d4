/**
 * Questions of the coding eval reworded by hand after write-questions.ts drafted them, where the draft named its
 * topic oddly. Keyed by kind and first gold event, so they stay with their question when the draft is rewritten.
 */

export const REWORDINGS: Readonly<Record<string, string>> = {
	"decision gpt-crawler/2025-03-07_02-13-resolving-typescript-compile-error-in-server-ts#10644427":
		"what did we decide to do about the tsc compile error in server.ts?",
	"decision munsell-space/2025-12-06_19-04-39Z-hello-claude-we-have#d648365d":
		"remind me what we decided when I said I didn't want more changes to the rust crate",
	"decision minsky/2025-05-01_21-15-task-030-initiation#e7ab8b7e":
		"did we decide task operations always happen in the main workspace? pull that up",
	"decision twat-search/2025-02-27_13-08-implementing-falla-and-tracking-progress#8e6b5267":
		"why did we decide to vendor the falla code instead of installing it from pypi?",
	"decision easy-video-share/2025-06-19_14-43-understanding-project-scope-and-implementation#d67d96a3":
		"what did we settle on for the MVP, the amazon cloud upload form?",
	"decision munsell-space/2025-12-06_19-04-39Z-hello-claude-we-have#bd7260fb":
		"pull up what we put in the future development document",
	"decision best-shot/2025-02-19_09-30-[typing-setup]#95d38733":
		"what did we decide about zod as the single source of truth for types?",
	"decision munsell-space/2025-12-06_19-04-39Z-hello-claude-we-have#9a68539b":
		"what did we decide about re-initialising task master, so we keep the task history?",
	"decision minsky/2025-04-30_01-18-available-tasks-inquiry#836d35ac":
		"when I asked which tasks were available, what did we decide to pick up?",
	"decision easy-video-share/2025-06-21_19-57-integrate-ktui-styling-with-metronic#ecf3ec3f":
		"after I told you to stop on the ktui styling, what did we settle on?",
	"decision easy-video-share/2025-06-21_14-00-troubleshooting-cognito-passwordless-login-error#d96de525":
		"which aws region did we decide on for the cognito login?",
	"abandoned minsky/2025-04-29_18-53-starting-task-002#487744e2":
		"for the session repo paths work in task 2, what did we try that didn't pan out?",
	"abandoned twat-search/2025-02-26_20-02-analyzing-todo-md-and-updating-progress-md#4a4dd6c9":
		"what did we try first for the urgent todos in progress.md and give up on?",
	"abandoned dvc/2025-06-08_07-18-improvements-for-kms-key-policy-enforcement#4374063d":
		"in the kms key policy exercise, what approach did we drop before committing?",
	"abandoned easy-video-share/2025-06-19_19-00-enhancing-app-with-user-accounts-and-api#defb4d76":
		"what did we try first for the terraform plan error that didn't work?",
	"abandoned twat-search/2025-02-26_20-02-analyzing-todo-md-and-updating-progress-md#c98e6f1d":
		"when we checked whether the api key exists, what did we try first?",
	"abandoned twat-search/2025-02-26_20-02-analyzing-todo-md-and-updating-progress-md#ac3c81df":
		"what didn't work when we consulted the brave api docs?",
	"abandoned minsky/2025-04-28_18-53-available-tasks-inquiry#0e3d52d5":
		"when you couldn't open a file I hadn't attached, what did you try first?",
	"abandoned minsky/2025-05-01_16-05-task-009-workflow-update#32a5458e":
		"during the merge of origin main into task 9, what did we try before changing tack?",
	"abandoned minsky/2025-04-28_16-54-task-#001-progress-check#9010e1ff":
		"what did we drop after the junior engineer read-through of the process doc?",
	"test minsky/2025-04-28_19-10-starting-work-on-project-#004#2727771b":
		"after redoing the changes with absolute paths on project 4, which tests ran and did they pass?",
	"test dvc/2025-06-08_07-18-improvements-for-kms-key-policy-enforcement#f83102e3":
		"what did the test run say at the git diff step of the kms exercise?",
	"test minsky/2025-05-01_16-05-task-009-workflow-update#ee3116d3":
		"did all tests pass when we verified task 9 was fully implemented?",
	"test twat-mp/2025-03-04_08-26-ruff-linting-errors-and-fixes#8d136f2d":
		"after fixing the ruff lint failures, which tests did we run?",
	"test minsky/2025-05-01_16-05-task-009-workflow-update#f7d1c448":
		"when we updated the task in the session instead of main, what did the tests say?",
	"test easy-video-share/2025-06-21_14-00-troubleshooting-cognito-passwordless-login-error#268ecffd":
		"during the cognito user pool check, did we run any tests, and what came out?",
	"test minsky/2025-05-01_19-32-starting-task-027#67256689":
		"after reconciling the merge conflicts in task 27, did the test suite pass?",
	"test minsky/2025-04-30_17-43-task-002-progress-and-updates#1eae17ae":
		"did bun test pass once we switched to the minsky command for task operations?",
	"test twat-search/2025-02-27_17-02-fixing-falla-py-async-issues#f1dcfa05":
		"what did the tests say while we were fixing the falla async issues?",
	"test minsky/2025-05-01_19-32-starting-task-027#acd2cd5e":
		"when we dropped the unneeded test scripts from task 27, what did the run print?",
	"test minsky/2025-04-30_01-18-available-tasks-inquiry#72c3bdd8": "what happened when we tried a fresh test session?",
	"test minsky/2025-05-01_19-32-starting-task-027#39e3944a":
		"which tests did we run when starting task 27, and what was the result?",
	"test minsky/2025-05-01_19-32-starting-task-027#b9f96751":
		"before we closed the task 27 session, what did the last test run say?",
	"test minsky/2025-04-26_22-29-task-management-command-design#b5bee411":
		"after merging the overlapping task logic, did the tests pass?",
	"test minsky/2025-05-01_16-05-task-009-workflow-update#b6cbda11": "do all tests pass for task 9? pull up that run",
	"test minsky/2025-04-29_20-27-task-008-initiation#e64b4492":
		"when I asked you to start task 15, what did the test run show?",
	"test minsky/2025-05-01_21-15-task-030-initiation#eab41579":
		"which tests did we run when starting task 3, and the result?",
	"error minsky/2025-04-29_20-27-starting-task-008#1fb856f9":
		"what did the minsky session command print when it failed on task 8?",
	"error easy-video-share/2025-06-19_19-00-enhancing-app-with-user-accounts-and-api#f42062ac":
		"what was the 401 error on login when we added user accounts?",
	"error dvc/2025-06-08_07-18-improvements-for-kms-key-policy-enforcement#88da5c78":
		"what did git commit print when it failed in the kms exercise?",
	"error easy-video-share/2025-06-21_14-00-troubleshooting-cognito-passwordless-login-error#4a608f29":
		"what did the console say about available challenges after the passwordless login change?",
	"error dvc/2025-06-07_14-25-suggestions-for-code-improvements-on-pr-#6495#9c5fbb6e":
		"the git commit step of the PR 6495 exercise failed, what was the error?",
	"error politipo/2025-03-26_03-44-refactoring-conversion-engine-and-strategies#470c3b85":
		"what error did we hit reconstructing complex types in the conversion engine?",
	"error politipo/2025-03-26_03-44-refactoring-conversion-engine-and-strategies#a7d7e9e8":
		"what error came up when we reduced duplication in the conversion strategies?",
	"fix minsky/2025-05-01_17-07-session-workspace-command-update-task#af3ab740":
		"how did we make the session commands detect the current session workspace?",
	"fix gpt-crawler/2025-03-07_09-17-remove-dom-nodes-by-selector-array#d83f113b":
		"show me the function we wrote that is like the onVisitPage cleaner",
	"fix gpt-crawler/2025-03-07_09-17-remove-dom-nodes-by-selector-array#9c159dbe":
		"did the backup handle the new config file name? what did we change",
	"fix minsky/2025-04-29_16-45-available-tasks-inquiry#1344f533":
		"pull up the edit where we updated only the description field",
	"fix gpt-crawler/2025-03-06_20-39-table-extraction-issues-in-html-crawl#13ca925a":
		"how did we keep the URL line at the top of each page markdown?",
	"fix minsky/2025-04-26_20-30-setting-up-minsky-cli-with-bun#a718780b":
		"how did we move the pr command's debug logs to stderr?",
	"fix minsky/2025-04-26_20-30-setting-up-minsky-cli-with-bun#b07e3d46":
		"show me the change that split each rule into its own mdc file",
	"fix minsky/2025-05-01_15-44-task-file-issues-duplicates-and-order#1fddbb76":
		"did we move the task specs to match tasks.md? show me the edit",
	"fix twat-search/2025-02-26_20-02-analyzing-todo-md-and-updating-progress-md#d374946b":
		"pull up the progress.md update where we marked the urgent todos",
	"fix gpt-crawler/2025-03-06_20-39-table-extraction-issues-in-html-crawl#87549b14":
		"what did we change for the tables on the colors page?",
	"fix twat-search/2025-02-25_07-34-integrating-hasdata-google-serp-apis#9f832372":
		"how did we fix the json output for the adam twardoch search?",
	"fix gpt-crawler/2025-02-20_19-47-code-cleanup-for-html-code-blocks#1ac01d36":
		"how did we clean up the two types of code blocks in onVisitPage?",
	"fix minsky/2025-04-26_22-29-task-management-command-design#f9bef636":
		"show me the changelog edit that references the specstory histories",
	"fix minsky/2025-04-30_21-54-available-tasks-inquiry#7365f08b":
		"show me the task we wrote for a --task option on minsky git pr",
	"fix twat-search/2025-02-27_17-02-fixing-falla-py-async-issues#2c437a33":
		"pull up the temporary rewrite of google falla to return full content",
	"fix twat-search/2025-02-25_04-16-implementing-functions-for-brave-search-engines#52bad3a5":
		"how did we stop requiring the api key to be passed into the brave functions?",
	"fix twat-search/2025-02-25_07-34-integrating-hasdata-google-serp-apis#9ecef675":
		"how did we get rid of the globe emoji in the results table?",
	"fix minsky/2025-04-27_20-17-minsky-task-workflow-rule-creation#5fec8c69":
		"where's the change that wrote minsky.mdc in the root dir?",
	"fix minsky/2025-04-28_19-10-starting-work-on-project-#004#6dc02afa":
		"pull up the rule change we made while starting project 4",
	"fix twat-search/2025-02-25_04-16-implementing-functions-for-brave-search-engines#02723e08":
		"what did we change after the brave search for adam twardoch loaded the env file?",
	"fix twat-search/2025-02-25_04-48-unifying-search-engine-parameters-in-twat-search#f3008354":
		"what edits did we make while unifying the search engine parameters, the keep updating part",
	"fix minsky/2025-04-28_16-54-task-#001-progress-check#bd602794":
		"how did we record the rule to use jq instead of grep for json outputs?",
	"task minsky/2025-04-28_18-53-available-tasks-inquiry#a7b2333a":
		"pull up where I asked you to look at how cursor rules work",
	"task gpt-crawler/2025-03-06_20-39-table-extraction-issues-in-html-crawl#250a609c":
		"find where I asked whether the code block changes would break the table handling",
	"task minsky/2025-04-30_01-18-available-tasks-inquiry#15fe2409":
		"find the request to merge origin main and resolve conflicts in the available tasks session",
	"task minsky/2025-04-28_18-53-available-tasks-inquiry#815ef492":
		"where did I ask about required instructions in the rules?",
	"task dvc/2025-06-08_07-18-improvements-for-kms-key-policy-enforcement#86c5fbd2":
		"pull up the task about supporting context for each rubric",
	"task minsky/2025-04-28_18-53-available-tasks-inquiry#ee21b906":
		"find where we talked about recognising task-related requests like start working on 4",
	"task twat-search/2025-03-04_07-32-project-documentation-and-cleanup-tasks#2be8f64b":
		"where did I ask to update the changelog and readme with everything we've done?",
	"task easy-video-share/2025-06-19_19-00-enhancing-app-with-user-accounts-and-api#bf7f3a94":
		"find my request about my videos showing the prior version's videos",
	"task process-xbrl/resolving-typescript-process-error#24fc477f": "pull up where I asked how to uninstall next",
	"task dvc/2025-06-07_14-25-suggestions-for-code-improvements-on-pr-#6495#ebc56f99":
		"find the rubric list with the response successes",
	"task easy-video-share/2025-06-21_19-13-improve-video-upload-styling#c088b553":
		"where did I point you at the static demo settings modal?",
	"task easy-video-share/2025-06-22_18-28-restore-mobile-upload-progress-indicator#f22ec5ac":
		"find where I said to get the mobile display right before adding transitions",
	"task minsky/2025-04-29_16-45-available-tasks-inquiry#6fbc5fd7":
		"where did I ask why the command description didn't match my query?",
	"task twat-search/2025-02-27_17-34-improving-search-engine-selectors-in-falla#b6da8d32":
		"pull up the request about whether log.md and progress.md are still needed",
	"task minsky/2025-04-26_23-34-untitled#b8232060": "pull up the task about duplicate changelog items",
	"decision minsky/2025-04-29_16-46-debugging-pr-command-logic#badd9891":
		"when we tested the pr command against the previous version, what did we decide?",
	"decision process-xbrl/styling-the-title-with-gradient-text#04968722":
		"which font did we switch to for the gradient title?",
	"decision dvc/2025-06-07_12-19-check-tests-and-resolve-issues#0e41c77d":
		"what did we settle on for the supporting context of each rubric?",
	"decision barqly-vault/2025-07-29_06-13Z-understand-roles-and-responsibilities-for-collaboration#a167ac41":
		"what did we decide about the product owner role in the collaboration setup?",
	"decision politipo/2025-03-24_22-02-pydantic-implementation-and-test-coverage-review#4f7dc443":
		"did we decide to unify the tests into the mirrored type mapper files?",
	"decision best-shot/2025-02-26_10-04-e2e-testing-flow-implementation#96709a8f":
		"what did we conclude about smoke test concepts and the smoke tag?",
	"decision dvc/2025-06-08_14-30-suggestions-for-codebase-improvements#d556e026":
		"which area did we choose to improve from the codebase suggestions?",
	"decision barqly-vault/2025-07-26_15-55Z-project-&-persona-summary#40d09e98":
		"what did we settle on about the optimal line of code persona chat?",
	"decision gpt-crawler/2025-03-29_07-15-adding-clean-up-scripts-to-package-json#9dd9b2ac":
		"what did we decide for the eslint config when we set up linting?",
	"decision gpt-crawler/2025-02-11_16-58-crawling-pipeline-implementation-comparison#a8cb08bf":
		"did we decide whether push data creates two versions in the crawler output?",
	"decision process-xbrl/look-at-the-python-files-in-models#33050a20":
		"what did we decide after the detailed summary of the table.py changes?",
	"decision barqly-vault/2025-07-29_06-13Z-understand-roles-and-responsibilities-for-collaboration#36804b5b":
		"which failing test did we decide to pick up first as a quick win?",
	"decision process-xbrl/look-at-the-python-files-in-models#eb5607de":
		"what did we decide after checking the terminal output of the template upload?",
	"decision barqly-vault/2025-07-28_03-15Z-validate-project-status-with-make#2ecbe68a":
		"what did we decide about tagging the current changes before the big refactor?",
	"decision minsky/2025-04-28_16-22-backlog-task-inquiry#12da7f2a":
		"did we decide we even need the mocking in those tests? find that",
	"decision gpt-crawler/2025-02-11_16-58-crawling-pipeline-implementation-comparison#bb799b23":
		"what was the call on onVisitPage having to push data, the two records thing?",
	"decision process-xbrl/styling-the-title-with-gradient-text#c844ff62":
		"what did we decide about making the loader look more 3d?",
	"abandoned twat-mp/2025-03-04_06-17-fixing-hatch-configuration-error#2f52b067":
		"what did we drop while updating the changelog for the hatch config error?",
	"abandoned barqly-vault/2025-07-28_03-15Z-validate-project-status-with-make#945dad8e":
		"before running the command, what did we try first to check the change was applied?",
	"abandoned minsky/2025-04-30_19-35-task-008-testing-and-review-updates#fbdba082":
		"remind me what didn't work with the test mocking approach for the workspace tests",
	"abandoned barqly-vault/2025-07-29_06-13Z-understand-roles-and-responsibilities-for-collaboration#dd70cefa":
		"why did we stop running make validate and what did we try instead?",
	"abandoned minsky/2025-04-29_16-19-available-tasks-inquiry#c59c9e61":
		"what did we try first when I meant the description at the top of the rule file?",
	"abandoned twat-search/2025-02-26_23-13-google-scraper-result-validation-issues#2cbf83fb":
		"what didn't work when num_results got overridden by -n in the google scraper?",
	"abandoned minsky/2025-05-01_16-39-continuing-task-022-progress#bd458e3e":
		"while fixing the task 22 tests one by one, what approach did we give up on?",
	"abandoned minsky/2025-04-29_17-23-available-tasks-inquiry#e23ade4e":
		"what did we try first to make git pr use the merge base?",
	"abandoned easy-video-share/2025-06-21_20-40-fixing-main-app-ui-styling-issues#0601b703":
		"what did we try and abandon while fixing the main app ui styling?",
	"abandoned minsky/2025-04-30_19-17-task-011-worklog-and-commit-review#0e77790d":
		"why did we keep deleting and recreating the file in task 11, what did we try instead?",
	"abandoned twat-search/2025-03-04_05-38-implementing-phases-1-and-2-from-todo-md#930f19c5":
		"what did we give up on while implementing phases 1 and 2 from todo.md?",
	"abandoned easy-video-share/2025-06-21_13-11-adjusting-modal-player-for-large-videos#6945f4d2":
		"what did we try first for the empty sign in password error before changing approach?",
	"abandoned twat-search/2025-02-27_15-45-updating-falla-library-selenium-to-playwright#b3e6b0f2":
		"what didn't work when the duckduckgo falla engine fetched the page?",
	"abandoned minsky/2025-04-30_20-13-finalizing-task-002-and-pr-preparation#5c27891e":
		"when there were two pr-description rules, what did we try first?",
	"abandoned minsky/2025-05-01_15-41-starting-task-006#55c106d9":
		"what did we try first on task 6 that we later dropped?",
	"abandoned minsky/2025-04-30_17-43-available-tasks-inquiry#e1a7ffdf":
		"why did we stop linking the session's version system-wide?",
	"test politipo/2025-03-21_22-01-file-renaming-and-update-instructions#1b88d384":
		"did the tests pass after we added support for those extra cases in the rename work?",
	"test best-shot/2025-02-26_10-04-e2e-testing-flow-implementation#9dd993b6":
		"what did the smoke run print when we dug into smoke testing?",
	"test dvc/2025-06-08_14-30-suggestions-for-codebase-improvements#3bd3dc67":
		"what did the tests say at the git diff step of the codebase improvement exercise?",
	"test barqly-vault/2025-07-28_03-15Z-validate-project-status-with-make#4303a9f3":
		"did the tests pass before we created the first tag in the repo?",
	"test twat-search/2025-02-27_15-45-updating-falla-library-selenium-to-playwright#677f4dd4":
		"what did the bing falla run print with the verbose flag?",
	"test twat-search/2025-02-26_23-13-google-scraper-result-validation-issues#77afcca0":
		"what did the tests say when an invalid engine name started an all-engine search?",
	"test minsky/2025-04-30_19-17-task-011-worklog-and-commit-review#45286644":
		"what did the test run say after merging upstream conflict by conflict in task 11?",
	"test twat-search/2025-03-04_05-12-fixing-ruff-linting-errors-in-code#be92631f":
		"which tests did we run after the ruff lint fixes, and were they green?",
	"test minsky/2025-04-30_19-35-task-008-testing-and-review-updates#5f713a21":
		"what did bun test say about the session dir command returning the wrong path?",
	"test twat-search/2025-03-04_05-38-implementing-phases-1-and-2-from-todo-md#4487b4ed":
		"what did pytest report while we did phases 1 and 2 and the changelog?",
	"test twat-search/2025-02-25_02-27-implementing-tests-for-twat-search-package#362e022c":
		"what did running example.py print when we implemented the twat-search tests?",
	"test minsky/2025-04-30_19-17-task-011-worklog-and-commit-review#014caa4f":
		"which test failures did we look at in task 11 and what did the run say?",
	"test twat-search/2025-02-26_19-49-fixing-linting-errors-in-code#d63bb8a4":
		"what did the tests say after the try except continue lint warning?",
	"test minsky/2025-04-29_19-23-continuing-task-001#423ba3de":
		"did the tests pass once we switched into the existing session repo for task 1?",
	"test minsky/2025-05-01_23-45-task-003-status-update#0e759bf5":
		"what did bun test say when we looked at the previous commits on task 3?",
	"test minsky/2025-04-29_20-47-starting-task-016#81bf421d":
		"what did the test run show when the task status wasn't updated in main for task 16?",
	"error politipo/2025-03-25_15-12-implementing-a-type-system-step-by-step#fcf3b39a":
		"what did the traceback say in main.py when we built the type system?",
	"error dvc/2025-06-07_12-19-check-tests-and-resolve-issues#bb3115fe":
		"what failed when we categorised the prompt type?",
	"error minsky/2025-04-29_16-46-debugging-pr-command-logic#a2795e34":
		"what did the pr output still contain, the initial commit thing?",
	"error minsky/2025-04-30_19-35-task-008-testing-and-review-updates#8ee6ecb9":
		"what did it print when I wasn't sure the changes went into the session workspace?",
	"error barqly-vault/2025-07-29_06-13Z-understand-roles-and-responsibilities-for-collaboration#0d725763":
		"what did make validate-ui print when it failed?",
	"error minsky/2025-05-01_16-39-continuing-task-022-progress#5d4fe7b8":
		"what error did we hit when continuing task 22?",
	"error minsky/2025-04-30_19-35-task-008-testing-and-review-updates#14bc1add":
		"what was the error when the terminal was waiting for user input?",
	"error twat-search/2025-02-27_15-08-project-update-and-task-management#d15cbe78":
		"what did it print when we updated todo.md from progress.md?",
	"error minsky/2025-04-29_20-47-starting-task-016#944b8802": "what error did we hit when starting task 16?",
	"error minsky/2025-04-29_16-44-available-tasks-inquiry#94933d68":
		"what did session start print when we checked task 1 was done?",
	"error minsky/2025-04-30_17-43-available-tasks-inquiry#326a1afd":
		"what error came back that I thought we fixed in a recent task?",
	"file minsky/2025-04-26_23-34-fixing-changelog-duplicates-and-references#be0e822b":
		"which file did we change to remove the duplicate changelog items?",
	"file gpt-crawler/2025-04-16_23-46-dynamic-language-support-for-code-blocks#d532b290":
		"which file had the fix for closing backticks at the start of a line?",
	"file best-shot/2025-03-23_17-36-auth0-token-response-details#e95f134a":
		"where did we pass the local-dev environment to launchdarkly?",
	"file gpt-crawler/2025-03-06_22-47-remove-dom-nodes-by-selector-array#a120bb90":
		"which file did we change to import everything from helpers into config.ts?",
	"file best-shot/2025-02-26_10-04-e2e-testing-flow-implementation#2b486b83":
		"which file did we regenerate when the e2e doc went wrong?",
	"file barqly-vault/2025-07-26_15-55Z-project-&-persona-summary#38474f5d":
		"where did we rename file and structure expectation to source code organization?",
	"file gpt-crawler/2025-03-06_22-47-remove-dom-nodes-by-selector-array#b00a0c52":
		"where did we move removeNodesFromDom out of the helpers?",
	"file twat-search/2025-02-26_18-44-fixing-search-engine-issues-in-codebase#82e6ff5d":
		"where did we add the pipe through cat to avoid pagination?",
	"file gpt-crawler/2025-03-06_22-47-remove-dom-nodes-by-selector-array#faf700e6":
		"which file did we change so the backup handles the new config file name?",
	"file politipo/2025-03-26_01-56-enhancing-type-mapping-in-politipo#bade8246":
		"which file did we fix after reviewing the type mapping code against what we discussed?",
	"file gpt-crawler/2025-03-06_22-47-remove-dom-nodes-by-selector-array#b0ef42cb":
		"which file got the new function that's like the onVisitPage cleaner?",
	"fix politipo/2025-03-25_15-12-implementing-a-type-system-step-by-step#97447ee1":
		"what did we fix after you said the type system implementation looked sound?",
	"fix gpt-crawler/2025-01-26_00-05-icon-rendering-issues-in-html-output#662fc4fb":
		"what did we change when the icons still didn't render right in the html?",
	"fix minsky/2025-04-28_16-22-backlog-task-inquiry#1e4d0816": "how did we add a timeout to the hanging test runner?",
	"fix twat-search/2025-02-27_12-02-plan-for-adding-support-for-falla-engines#1be70c65":
		"pull up the plan for the falla engines in todo.md",
	"fix easy-video-share/2025-06-21_18-22-integrating-metronic-ui-with-vue-app#0951cf7e":
		"what did we change when the metronic demo turned out to be static html, not vue?",
	"fix politipo/2025-03-26_03-32-console-output-assistance#e00cc0f5":
		"what did we change after checking the pydantic version with pip list?",
	"fix gpt-crawler/2025-04-16_23-46-dynamic-language-support-for-code-blocks#a236bcda":
		"how did we fix the markdown output wrapping code blocks in triple backticks?",
	"fix politipo/2025-03-26_03-32-console-output-assistance#dd063729":
		"what did we change after checking the console output in politipo?",
	"fix minsky/2025-04-28_16-22-backlog-task-inquiry#7a364dc7":
		"show me the rule that says never ask me whether to proceed",
	"fix minsky/2025-04-28_16-22-backlog-task-inquiry#606af402":
		"how did we stop using the --session param when there's no active session?",
	"fix minsky/2025-05-01_16-39-continuing-task-022-progress#72ba547e":
		"show me where we recorded the current state in the task 22 worklog",
	"fix gpt-crawler/2025-04-03_02-39-fixing-typescript-error-innertext-issue#b15b2811":
		"how did we fix markdown files being created with markdown code fences?",
	"fix gpt-crawler/2025-04-16_23-46-dynamic-language-support-for-code-blocks#7fbbd463":
		"what did we change for the code block language parsing beyond a single regex?",
	"task dvc/2025-06-08_14-30-suggestions-for-codebase-improvements#fd36f94c":
		"pull up the task with the response fails rubrics",
	"task gpt-crawler/2025-02-11_17-37-custom-code-block-formatting-in-markdown#f552a1f9":
		"find my request for a custom onVisitPage to fix the collected code blocks",
	"task munsell-space/2025-12-22_19-14-11Z#1fc1ee2e":
		"find the session where I enabled the plugin and had to restart claude code",
	"task gpt-crawler/2025-02-11_19-52-comparison-of-json-storage-in-core-versions#3336b141":
		"find where I asked the newer version not to collect excerpt, byline and sitename",
	"task gpt-crawler/2025-02-11_05-23-confirmation-of-custom-function-implementation#fc399e5a":
		"find where I asked what's possible with the current codebase in src",
	"task process-xbrl/styling-the-title-with-gradient-text#0c58ef4d":
		"pull up where I asked for a metallic, a little flashy title",
	"task minsky/2025-04-30_19-31-task#002-progress-and-updates#4c2ff48c":
		"find where I asked why the command was hanging",
	"task gpt-crawler/2025-02-11_15-53-confirmation-of-custom-function-implementation#53b02600":
		"find where I said none of that should need modifications",
	"task gpt-crawler/2025-01-26_08-09-choosing-css-selectors-for-html-elements#113f229b":
		"where did I ask for a jq command that only prints key names?",
	"task gpt-crawler/2025-02-11_15-53-confirmation-of-custom-function-implementation#d5b2c4f5":
		"find where I asked you to explain what the current codebase can do",
	"task best-shot/2025-03-23_17-36-auth0-token-response-details#cbebe94d":
		"where did I ask whether we have the useFeature hook from launchdarkly?",
	"task twat-search/2025-02-26_11-30-untitled#dc9506df": "find my request to add the missing engine name constants",
	"task process-xbrl/identifying-dependencies-for-notices-txt#c1e6dfdd":
		"find where I asked how to check that antiwork shortest installed properly",
	"task easy-video-share/2025-06-21_16-08-plan-for-passwordless-login-with-cognito#e930d119":
		"find where I attached the terraform output for the passwordless login",
	"task gpt-crawler/2025-02-11_15-53-confirmation-of-custom-function-implementation#7834f6c6":
		"where did I ask why the custom onVisitPage changes would be needed?",
	"task gpt-crawler/2025-02-11_17-37-custom-code-block-formatting-in-markdown#3ca659bb":
		"find where I asked for a pre node then a code node when replacing the text",
	"task barqly-vault/2025-07-26_15-55Z-project-&-persona-summary#ace4a054":
		"find where I told you not to start coding yet",
	"task gpt-crawler/2025-02-11_09-22-comparison-of-json-storage-in-core-versions#f07b9c39":
		"pull up my request about the html structure and text content of the newer version",
	"task twat-search/2025-02-26_10-55-standardizing-engine-naming-conventions#3dc1526f":
		"find the session with the imported searchit module debug output",
	"task gpt-crawler/2025-02-11_07-07-custom-code-block-formatting-in-markdown#67fbb5f6":
		"where did I paste the typescript error about innerText on config.ts?",
	"task easy-video-share/2025-06-21_13-11-adjusting-modal-player-for-large-videos#e2ef3635":
		"find where I asked whether you were removing the auth lambdas directory",
	"task gpt-crawler/2025-02-11_07-07-custom-code-block-formatting-in-markdown#fd4f5dad":
		"find where I said I'd given you the wrong version of the page",
};
