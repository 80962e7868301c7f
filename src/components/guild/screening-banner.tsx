"use client";

import { Alert, Box, Button, Text } from "@mantine/core";
import { useRouter } from "next/navigation";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { IconUserCheck } from "~/components/icons.tsx";
import { api } from "~/trpc/react.tsx";

/** Shown on every guild page while the signed-in member has not completed membership screening. */
export function ScreeningBanner({ guildId }: { guildId: string }) {
  const rights = api.member.rights.useQuery({ guildId });
  const router = useRouter();
  const utils = api.useUtils();
  const complete = api.member.completeScreening.useMutation({
    onSuccess: async () => {
      notifySuccess("You are now a full member of this guild.", "Screening completed");
      // Every permission the pages show changes with it.
      await utils.invalidate();
      router.refresh();
    },
    onError: (error) => notifyFailure("Could not complete screening", error),
  });
  if (!rights.data?.isPending) return null;
  return (
    <Box maw={1180} mx="auto" mb="lg">
      <Alert color="yellow" variant="light" icon={<IconUserCheck size={18} />} title="Complete membership screening">
        <Text size="sm" mb="sm">
          This guild asks new members to complete membership screening. Until you do, you can look around but not take part.
        </Text>
        <Button size="xs" color="yellow" loading={complete.isPending} onClick={() => complete.mutate({ guildId })}>
          Complete screening
        </Button>
      </Alert>
    </Box>
  );
}
