import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/** Prints each project's counts and its ten slowest test files, so a CI log shows what ran and where the time goes. */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const byProject = new Map<string, TestModule[]>();
    for (const module of testModules) {
      const name = module.project.name || "default";
      byProject.set(name, [...(byProject.get(name) ?? []), module]);
    }
    for (const [project, modules] of byProject) {
      const states = { passed: 0, skipped: 0, failed: 0, pending: 0 };
      for (const module of modules) for (const test of module.children.allTests()) states[test.result().state] += 1;
      const timed = modules.map((module) => {
        const d = module.diagnostic();
        // What the file cost its worker: setting up, importing, then its tests and hooks.
        const total = d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
        return { file: relative(process.cwd(), module.moduleId), total, tests: d.duration };
      });
      timed.sort((a, b) => b.total - a.total);
      const seconds = timed.reduce((sum, { total }) => sum + total, 0) / 1000;
      console.log(
        `\n${project}: ${modules.length} files, ${states.passed} passed, ${states.skipped} skipped, ${states.failed} failed; ${seconds.toFixed(0)} s in workers`,
      );
      console.log("slowest files: seconds in all, of which tests");
      for (const { file, total, tests } of timed.slice(0, 10))
        console.log(`${(total / 1000).toFixed(1).padStart(7)} ${(tests / 1000).toFixed(1).padStart(7)}  ${file}`);
    }
  }
}
