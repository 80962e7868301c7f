import { Card, Group, Skeleton, Stack } from "@mantine/core";

export function TableSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <Card padding={0} role="status" aria-busy="true" aria-label="Loading">
      <Stack gap={0}>
        {Array.from({ length: rows }, (_, i) => (
          <Group key={i} p="md" gap="md" style={{ borderTop: i ? "1px solid var(--mantine-color-default-border)" : undefined }}>
            <Skeleton height={14} width={14} circle />
            <Skeleton height={12} width="25%" />
            <Skeleton height={12} width="10%" ml="auto" />
            <Skeleton height={12} width="15%" />
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
