import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/** Prints the ten slowest test files of each project, so a CI log shows where the time goes. */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const byProject = new Map<string, TestModule[]>();
    for (const module of testModules) {
      const name = module.project.name || "default";
      byProject.set(name, [...(byProject.get(name) ?? []), module]);
    }
    for (const [project, modules] of byProject) {
      const timed = modules.map((module) => {
        const d = module.diagnostic();
        // What the file cost its worker: setting up, importing, then its tests and hooks.
        return {
          file: relative(process.cwd(), module.moduleId),
          total: d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration,
          tests: d.duration,
        };
      });
      timed.sort((a, b) => b.total - a.total);
      console.log(`\nslowest files (${project}): seconds in all, of which tests`);
      for (const { file, total, tests } of timed.slice(0, 10))
        console.log(`${(total / 1000).toFixed(1).padStart(7)} ${(tests / 1000).toFixed(1).padStart(7)}  ${file}`);
    }
  }
}
