"use client";

import { Badge, Code, Group, Progress, Stack, Switch, Text } from "@mantine/core";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { SectionCard } from "~/components/section-card.tsx";
import { PRIVILEGED_INTENT_NAMES, type PrivilegedIntent } from "~/server/applications/application.schema.ts";
import type { IntentState } from "~/server/applications/intents.ts";
import { api } from "~/trpc/react.tsx";
import type { ApplicationDetail } from "./application-types.ts";

const INTENTS: Record<PrivilegedIntent, { label: string; needs: string }> = {
  GUILD_MEMBERS: { label: "Guild members", needs: "Lists a guild's members (GET /guilds/{id}/members) and receives member events." },
  PRESENCE: { label: "Presence", needs: "Receives members' online status and activities." },
  MESSAGE_CONTENT: { label: "Message content", needs: "Reads the content of other authors' messages, and searches a guild's messages." },
};

const STATES: Record<IntentState, { label: string; color: string }> = {
  approved: { label: "Approved by an operator", color: "teal" },
  limited: { label: "Enabled (limited)", color: "blue" },
  needs_review: { label: "Needs review", color: "orange" },
  off: { label: "Off", color: "gray" },
};

/** Why a switch can't be used, or what its state means; null when there is nothing to add. */
function stateNote(state: IntentState, overReview: boolean): string | null {
  if (state === "approved") return "An operator approved it; only an operator can withdraw it.";
  if (state === "needs_review") return "Switched on, but without effect: your bot reaches too many users. Ask an operator to approve it.";
  if (state === "off" && overReview) return "Your bot reaches too many users to switch it on itself. Ask an operator to approve it.";
  return null;
}

/** The privileged intents: switch the limited form on or off, see which count, and the rule behind them. */
export function IntentsSection({ application }: { application: ApplicationDetail }) {
  const utils = api.useUtils();
  const { reach, reviewThreshold } = application;
  const overReview = reach >= reviewThreshold;
  const setIntent = api.application.setIntent.useMutation({
    onSuccess: (updated, { intent, enabled }) => {
      utils.application.get.setData({ applicationId: application.id }, updated);
      notifySuccess(`${INTENTS[intent].label} is ${enabled ? "on" : "off"}.`, "Intents saved");
    },
    onError: (error) => notifyFailure("Could not change the intent", error),
  });

  return (
    <SectionCard
      id="intents"
      title="Privileged gateway intents"
      description={
        <>
          Your app may switch the limited form of an intent on itself while its bot reaches fewer than {reviewThreshold.toLocaleString("en-US")} users across
          its guilds. Past that, only the approval of this server&apos;s operator grants or keeps it: ask them, with your application ID and the intents your
          app needs.
        </>
      }
    >
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <Text size="sm" fw={500}>
            Bot reach
          </Text>
          <Text size="sm" c={overReview ? "orange.8" : "dimmed"}>
            {reach.toLocaleString("en-US")} of {reviewThreshold.toLocaleString("en-US")} users
          </Text>
        </Group>
        <Progress
          value={Math.min(100, (reach / reviewThreshold) * 100)}
          color={overReview ? "orange" : "blue"}
          aria-label={`Bot reach: ${reach} of ${reviewThreshold} users`}
        />
        <Text size="xs" c="dimmed">
          Distinct users across the guilds your bot is in, counted about once a minute.
        </Text>
      </Stack>
      <Stack gap="md">
        {PRIVILEGED_INTENT_NAMES.map((name) => {
          const state = application.intents[name];
          const pending = setIntent.isPending && setIntent.variables.intent === name;
          const checked = pending ? setIntent.variables.enabled : state !== "off";
          const note = stateNote(state, overReview);
          return (
            <Group key={name} justify="space-between" align="flex-start" gap="sm" wrap="nowrap">
              <Switch
                label={
                  <Group gap={6} component="span">
                    {INTENTS[name].label} <Code>{name}</Code>
                  </Group>
                }
                description={note ? `${INTENTS[name].needs} ${note}` : INTENTS[name].needs}
                checked={checked}
                disabled={setIntent.isPending || state === "approved" || (state === "off" && overReview)}
                onChange={(event) => setIntent.mutate({ applicationId: application.id, intent: name, enabled: event.currentTarget.checked })}
              />
              <Badge variant="light" color={STATES[state].color} style={{ flexShrink: 0 }}>
                {STATES[state].label}
              </Badge>
            </Group>
          );
        })}
      </Stack>
    </SectionCard>
  );
}
