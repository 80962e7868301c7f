import { githubEmbed, GITHUB_COLORS, repoLabel, type GithubEventMapper } from "./github-embed-style.ts";

/** How a finished check reads, and its colour; anything else (neutral, skipped, stale) is neutral. */
function outcome(conclusion: string | null | undefined): { word: string; color: number } {
  if (conclusion === "success") return { word: "success", color: GITHUB_COLORS.success };
  if (conclusion === "failure" || conclusion === "timed_out" || conclusion === "action_required") return { word: "failure", color: GITHUB_COLORS.failure };
  if (conclusion === "cancelled") return { word: "cancelled", color: GITHUB_COLORS.neutral };
  return { word: conclusion ?? "completed", color: GITHUB_COLORS.neutral };
}

/** check_run: posted when completed, with the suite's branch and the run's summary. */
const checkRun: GithubEventMapper = (payload) => {
  const run = payload.check_run;
  if (payload.action !== "completed" || !run) return null;
  const { word, color } = outcome(run.conclusion);
  return githubEmbed(payload, {
    title: `${repoLabel(payload, run.check_suite?.head_branch)} Check run ${run.name}: ${word}`,
    url: run.html_url,
    description: run.output?.title ?? run.output?.summary,
    color,
  });
};

/** check_suite: posted when completed, naming the app that ran it. */
const checkSuite: GithubEventMapper = (payload) => {
  const suite = payload.check_suite;
  if (payload.action !== "completed" || !suite) return null;
  const { word, color } = outcome(suite.conclusion);
  const app = suite.app?.name ? ` (${suite.app.name})` : "";
  return githubEmbed(payload, {
    title: `${repoLabel(payload, suite.head_branch)} Check suite${app}: ${word}`,
    url: payload.repository?.html_url,
    description: suite.head_sha ? `Commit \`${suite.head_sha.slice(0, 7)}\`` : undefined,
    color,
  });
};

export const checkEvents: Record<string, GithubEventMapper> = { check_run: checkRun, check_suite: checkSuite };
