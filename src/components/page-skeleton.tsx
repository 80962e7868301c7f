import { Card, Skeleton, Stack } from "@mantine/core";

/** What a guild section shows while its data loads: a title and a few blocks. */
export function PageSkeleton({ blocks = 3 }: { blocks?: number }) {
  return (
    <Stack gap="lg" maw={960} mx="auto" role="status" aria-busy="true" aria-label="Loading">
      <Stack gap={8}>
        <Skeleton height={26} width={240} />
        <Skeleton height={12} width={360} />
      </Stack>
      {Array.from({ length: blocks }, (_, i) => (
        <Card key={i} padding="lg">
          <Stack gap="sm">
            <Skeleton height={14} width="30%" />
            <Skeleton height={36} />
            <Skeleton height={36} width="80%" />
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
