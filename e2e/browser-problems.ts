import type { Page } from "@playwright/test";

/**
 * Page errors, console errors and what the content security policy blocked, from the next load
 * on. A 404 answer is logged as a failed load: the not-found page doing its job.
 */
export async function watchBrowser(page: Page): Promise<string[]> {
  const errors: string[] = [];
  await page.exposeFunction("reportViolation", (text: string) => errors.push(`blocked by the content security policy: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      void (window as unknown as { reportViolation(text: string): Promise<void> }).reportViolation(
        `${event.violatedDirective} ${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().includes("Failed to load resource: the server responded with a status of 404")) {
      errors.push(`console error: ${message.text()}`);
    }
  });
  return errors;
}
