"use client";

import { Button, Center, EmptyState } from "@mantine/core";
import Link from "next/link";
import { IconBuildingCastle } from "~/components/icons.tsx";

export default function NotFound() {
  return (
    <Center mih="100dvh" bg="var(--app-page-bg)" p="md">
      <EmptyState variant="light" icon={<IconBuildingCastle size={28} />}>
        <EmptyState.Title order={1}>Nothing here</EmptyState.Title>
        <EmptyState.Description>This page does not exist, or it belongs to a guild you are not a member of.</EmptyState.Description>
        <EmptyState.Actions>
          <Button component={Link} href="/">
            Back to your guilds
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Center>
  );
}
