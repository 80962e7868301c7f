import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verify } from "node:crypto";
import { createApplication } from "~/server/applications/application.service.ts";
import { verifyKeyObject } from "~/server/applications/application-keys.ts";
import { EVENT_WEBHOOKS_URL_UNVERIFIED } from "~/server/event-webhooks/event-webhook-settings.ts";
import { runChange } from "~/server/events/change.ts";
import { recordAuthorization } from "~/server/oauth2/grants.ts";
import { expect, test } from "../fixtures.ts";
import { e2eDb, seedGuest } from "../seed.ts";

type Received = { path: string; isSigned: boolean; body: { type: number; event?: { type: string; data: { user: { id: string } } } } };

/**
 * An event webhooks receiver on this machine (the server allows 127.0.0.1 through
 * EVENT_WEBHOOK_ALLOWED_HOSTS, playwright.config.ts): `/events` answers as the platform asks (204 to
 * a signed request, 401 to a forged one); `/down` answers 500 to everything.
 */
async function startReceiver(verifyKey: string): Promise<{ server: Server; url: (path: string) => string; received: Received[] }> {
  const key = verifyKeyObject(verifyKey);
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const signature = String(request.headers["x-signature-ed25519"] ?? "");
      const timestamp = String(request.headers["x-signature-timestamp"] ?? "");
      const isSigned = /^[0-9a-f]{128}$/.test(signature) && verify(null, Buffer.from(timestamp + text), key, Buffer.from(signature, "hex"));
      received.push({ path: request.url ?? "", isSigned, body: JSON.parse(text) as Received["body"] });
      response.writeHead(request.url === "/down" ? 500 : isSigned ? 204 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: (path) => `http://127.0.0.1:${port}${path}`, received };
}

test("sets an event webhooks URL (a refused one is told what a URL must do), then sees an authorization delivered in the log", async ({
  page,
  signedIn: owner,
}, testInfo) => {
  const { application } = await e2eDb().$transaction((tx) => createApplication(tx, { name: "Hook Runner", ownerId: owner.user.id }));
  const receiver = await startReceiver(application.verifyKey!);
  try {
    await page.goto(`/applications/${application.id}`);
    const section = page.getByRole("region", { name: "Event webhooks" });
    await expect(section.getByText("No deliveries yet")).toBeVisible();

    // A URL that does not answer the PING as required is refused, on the field (one text whatever went wrong).
    const url = section.getByLabel("Endpoint URL");
    await url.fill(receiver.url("/down"));
    await section.getByRole("switch", { name: "Send events" }).check();
    await section.getByRole("checkbox", { name: "APPLICATION_AUTHORIZED" }).check();
    await section.getByRole("button", { name: "Save event webhooks" }).click();
    await expect(section.getByText(EVENT_WEBHOOKS_URL_UNVERIFIED)).toBeVisible();
    await section.screenshot({ path: testInfo.outputPath("event-webhooks-refused.png") });

    await url.fill(receiver.url("/events"));
    await section.getByRole("button", { name: "Save event webhooks" }).click();
    await expect(page.getByText("Events will be sent to your URL.")).toBeVisible();
    expect(receiver.received.filter((request) => request.path === "/events").map((request) => [request.body.type, request.isSigned])).toEqual([
      [0, true],
      [0, false],
    ]);

    // Someone authorizes the application: the server sends the event, and the log shows it.
    const guest = await seedGuest("authorizer");
    await runChange({ db: e2eDb(), actor: null }, (change) =>
      recordAuthorization(change, { applicationId: application.id, userId: guest.user.id, scopes: ["identify"] }),
    );
    const log = section.getByRole("table");
    await expect(log.getByRole("row", { name: /APPLICATION_AUTHORIZED.*Delivered.*204/ })).toBeVisible();
    const event = receiver.received.find((request) => request.body.type === 1);
    expect(event).toMatchObject({ isSigned: true, body: { event: { type: "APPLICATION_AUTHORIZED", data: { user: { id: guest.user.id } } } } });
    await section.screenshot({ path: testInfo.outputPath("event-webhooks-delivered.png"), animations: "disabled" });
  } finally {
    receiver.server.close();
  }
});
