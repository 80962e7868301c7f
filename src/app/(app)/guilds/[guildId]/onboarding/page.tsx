import type { Metadata } from "next";
import { OnboardingEditor } from "~/components/onboarding/onboarding-editor.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Onboarding" };

export default async function OnboardingPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  await requireUser(`/guilds/${guildId}/onboarding`);
  // The guild and the user's permissions come hydrated from the layout.
  await Promise.all([api.onboarding.get.prefetch({ guildId }), api.onboarding.channels.prefetch({ guildId }), api.role.list.prefetch({ guildId })]);
  return (
    <HydrateClient>
      <OnboardingEditor guildId={guildId} />
    </HydrateClient>
  );
}
