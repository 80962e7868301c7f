import { Card, Group, SimpleGrid, Skeleton, Stack } from "@mantine/core";

export function GuildGridSkeleton({ count = 6 }: { count?: number }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" aria-busy="true" aria-label="Loading guilds">
      {Array.from({ length: count }, (_, i) => (
        <Card key={i} padding="lg">
          <Group gap="md" wrap="nowrap">
            <Skeleton height={56} width={56} radius="lg" />
            <Stack gap={8} flex={1}>
              <Skeleton height={14} width="70%" />
              <Skeleton height={10} width="40%" />
            </Stack>
          </Group>
        </Card>
      ))}
    </SimpleGrid>
  );
}
