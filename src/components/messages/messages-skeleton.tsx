import { Group, Skeleton, Stack, type StackProps } from "@mantine/core";

/** Three placeholder messages (avatar, author, text) while a list of messages loads. */
export function MessagesSkeleton(props: Pick<StackProps, "p">) {
  return (
    <Stack gap="md" role="status" aria-busy="true" aria-label="Loading messages" {...props}>
      {[0, 1, 2].map((i) => (
        <Group key={i} align="flex-start" wrap="nowrap">
          <Skeleton circle height={38} />
          <Stack gap={6} flex={1}>
            <Skeleton height={12} width="30%" />
            <Skeleton height={12} width="80%" />
          </Stack>
        </Group>
      ))}
    </Stack>
  );
}
