import { AuditLogEvent } from "discord-api-types/v10";
import type { AuditChange } from "~/server/audit/audit-entry-writer.ts";
import { diffChanges } from "~/server/audit/audit.service.ts";
import type { Onboarding, OnboardingPrompt } from "./onboarding.dto.ts";

const ONBOARDING_KEYS = ["enabled", "mode", "default_channel_ids"] as const;
const PROMPT_KEYS = ["title", "type", "options", "single_select", "required", "in_onboarding"] as const;

/** One audit log entry of an onboarding change, for the guild whose onboarding it is. */
export type OnboardingAuditEntry = { actionType: AuditLogEvent; targetId: string; changes: AuditChange[] };

/**
 * The entries the platform records for a change: Onboarding Create the first time it is set
 * up, Onboarding Update when enabled, mode or default channels change, and one Onboarding
 * Prompt Create, Update or Delete per prompt added, changed or removed (prompt ids target).
 */
export function onboardingAuditEntries(before: Onboarding, after: Onboarding, isFirstSetup: boolean): OnboardingAuditEntry[] {
  const entries: OnboardingAuditEntry[] = [];
  const changes = diffChanges(before, after, ONBOARDING_KEYS);
  if (isFirstSetup || changes.length > 0) {
    entries.push({ actionType: isFirstSetup ? AuditLogEvent.OnboardingCreate : AuditLogEvent.OnboardingUpdate, targetId: after.guild_id, changes });
  }
  const previous = new Map(before.prompts.map((prompt) => [prompt.id, prompt]));
  const kept = new Set(after.prompts.map((prompt) => prompt.id));
  for (const prompt of after.prompts) {
    const old = previous.get(prompt.id);
    const promptChanges = diffChanges(old ?? {}, prompt, PROMPT_KEYS);
    if (!old) entries.push({ actionType: AuditLogEvent.OnboardingPromptCreate, targetId: prompt.id, changes: promptChanges });
    else if (promptChanges.length > 0) entries.push({ actionType: AuditLogEvent.OnboardingPromptUpdate, targetId: prompt.id, changes: promptChanges });
  }
  for (const prompt of before.prompts) {
    if (!kept.has(prompt.id)) entries.push({ actionType: AuditLogEvent.OnboardingPromptDelete, targetId: prompt.id, changes: removed(prompt) });
  }
  return entries;
}

function removed(prompt: OnboardingPrompt): AuditChange[] {
  return diffChanges(prompt, {}, PROMPT_KEYS);
}
