"use client";

import { Alert, Avatar, Box, Button, Center, Group, Paper, Stack, Text, Title } from "@mantine/core";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { errorText } from "~/components/forms/server-errors.ts";
import { cdnImageUrl, GuildAvatar } from "~/components/guild/guild-avatar.tsx";
import { IconAlertTriangle, IconBan, IconBuildingCastle, IconClock, IconLink, IconUserCheck } from "~/components/icons.tsx";
import { api, type RouterOutputs } from "~/trpc/react.tsx";
import { TimeLeft } from "~/components/time/time.tsx";

type Invite = RouterOutputs["invite"]["get"];
export type PublicInviteView = "invite" | "invalid" | "paused" | "banned" | "member";

type Props = {
  code: string;
  invite: Invite | null;
  initialView: PublicInviteView;
  signedIn: boolean;
  /** "7 days", "Never": worked out by the server so both renders agree. */
};

const UNKNOWN_INVITE = 10006;
const BANNED = 40007;

/** What someone who opened an invite link sees: the guild, and a way in or why there is none. */
export function PublicInvite({ code, invite, initialView, signedIn }: Props) {
  const router = useRouter();
  const [view, setView] = useState(initialView);
  const accept = api.invite.accept.useMutation({
    onSuccess: (result) => {
      if (result.joined) router.push(`/guilds/${result.guildId}`);
      else setView("member");
    },
    onError: (error) => {
      if (error.data?.domainCode === BANNED) setView("banned");
      else if (error.data?.domainCode === UNKNOWN_INVITE) setView("invalid");
    },
  });
  const splash = invite?.guild.splash ? cdnImageUrl("splashes", invite.guild.id, invite.guild.splash) : null;

  return (
    <Center
      mih="100dvh"
      p="md"
      bg="var(--app-page-bg)"
      style={splash ? { backgroundImage: `url(${splash})`, backgroundSize: "cover", backgroundPosition: "center" } : undefined}
    >
      <Box w="100%" maw={440}>
        <Group justify="center" gap="xs" mb="lg" c={splash ? "white" : undefined}>
          <Center w={32} h={32} bg="var(--mantine-primary-color-filled)" c="white" style={{ borderRadius: "var(--mantine-radius-md)" }}>
            <IconBuildingCastle size={20} />
          </Center>
          <Text fw={700} size="lg">
            Guildhall
          </Text>
        </Group>
        <Paper withBorder shadow="md" p="xl" bg="var(--app-surface-bg)">
          {view === "invalid" || !invite ? (
            <InviteNotice
              icon={<IconLink size={28} />}
              title="Invite invalid"
              text="This invite may have expired, been used up, or revoked. Ask whoever sent it for a new one."
              action={<HomeButton signedIn={signedIn} />}
            />
          ) : view === "paused" ? (
            <InviteNotice
              icon={<IconClock size={28} />}
              title="Invites are paused"
              text={`${invite.guild.name} isn't letting anyone new join right now. Try again later.`}
              action={<HomeButton signedIn={signedIn} />}
            />
          ) : view === "banned" ? (
            <InviteNotice
              icon={<IconBan size={28} />}
              title="You can't join this guild"
              text={`You are banned from ${invite.guild.name}.`}
              action={<HomeButton signedIn={signedIn} />}
            />
          ) : (
            <Stack align="center" gap="md">
              <GuildAvatar guild={invite.guild} size={80} radius="lg" />
              <Stack align="center" gap={4}>
                <Text size="sm" c="dimmed" ta="center">
                  {invite.inviter ? (
                    <>
                      <b>{invite.inviter.global_name ?? invite.inviter.username}</b> invited you to join
                    </>
                  ) : (
                    "You've been invited to join"
                  )}
                </Text>
                <Title order={1} fz={26} ta="center">
                  {invite.guild.name}
                </Title>
                {invite.guild.description ? (
                  <Text size="sm" ta="center">
                    {invite.guild.description}
                  </Text>
                ) : null}
              </Stack>
              <Counts invite={invite} />
              {view === "member" ? (
                <Stack gap="sm" w="100%" align="center">
                  <Group gap={6} c="teal">
                    <IconUserCheck size={18} />
                    <Text size="sm" fw={500}>
                      You're already a member
                    </Text>
                  </Group>
                  <Button component={Link} href={`/guilds/${invite.guild.id}`} fullWidth size="md">
                    Open guild
                  </Button>
                </Stack>
              ) : (
                <Stack gap="xs" w="100%">
                  {accept.error && view === "invite" ? (
                    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert" title="Could not join">
                      {errorText(accept.error)}
                    </Alert>
                  ) : null}
                  {signedIn ? (
                    <Button fullWidth size="md" loading={accept.isPending || accept.isSuccess} onClick={() => accept.mutate({ code })}>
                      Accept invite
                    </Button>
                  ) : (
                    <Button component={Link} href={`/signin?callbackUrl=${encodeURIComponent(`/invite/${code}`)}`} fullWidth size="md">
                      Accept invite
                    </Button>
                  )}
                  <Text size="xs" c="dimmed" ta="center">
                    {signedIn ? null : "You'll sign in first. "}
                    {invite.expires_at ? (
                      <TimeLeft until={invite.expires_at} ended="This invite has expired.">
                        {(left) => `This invite expires in ${left}.`}
                      </TimeLeft>
                    ) : (
                      "This invite never expires."
                    )}
                  </Text>
                </Stack>
              )}
            </Stack>
          )}
        </Paper>
      </Box>
    </Center>
  );
}

function Counts({ invite }: { invite: Invite }) {
  if (invite.approximate_member_count === undefined) return null;
  const online = invite.approximate_presence_count ?? 0;
  return (
    <Group gap="lg" justify="center">
      <Group gap={6}>
        <Box w={8} h={8} bg="teal" style={{ borderRadius: "50%" }} aria-hidden />
        <Text size="sm" c="dimmed">
          {online.toLocaleString("en-US")} online
        </Text>
      </Group>
      <Group gap={6}>
        <Box w={8} h={8} bg="gray" style={{ borderRadius: "50%" }} aria-hidden />
        <Text size="sm" c="dimmed">
          {invite.approximate_member_count.toLocaleString("en-US")} {invite.approximate_member_count === 1 ? "member" : "members"}
        </Text>
      </Group>
    </Group>
  );
}

function InviteNotice({ icon, title, text, action }: { icon: ReactNode; title: string; text: string; action: ReactNode }) {
  return (
    <Stack align="center" gap="md" ta="center">
      <Avatar size={64} radius="xl" variant="light" color="gray">
        {icon}
      </Avatar>
      <Title order={1} fz={24}>
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        {text}
      </Text>
      {action}
    </Stack>
  );
}

function HomeButton({ signedIn }: { signedIn: boolean }) {
  return (
    <Button component={Link} href={signedIn ? "/" : "/signin"} variant="default" leftSection={<IconBuildingCastle size={16} />}>
      {signedIn ? "Back to your guilds" : "Go to Guildhall"}
    </Button>
  );
}
