"use client";

import { Button, Group, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { useDebouncedValue, useDisclosure } from "@mantine/hooks";
import { useState } from "react";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { IconCrown } from "~/components/icons.tsx";
import { SectionCard } from "~/components/section-card.tsx";
import { api, type RouterOutputs } from "~/trpc/react.tsx";

type Candidate = RouterOutputs["guild"]["ownerCandidates"]["candidates"][number];

function labelOf(candidate: Candidate): string {
  const label = `${candidate.name} (@${candidate.username})`;
  return candidate.bot ? `${label}, a bot` : label;
}

/**
 * Handing the guild to another member. Only the owner may (the server says why others may
 * not); the owner picks a member, then types the guild's name, as deleting asks.
 */
export function TransferOwnershipSection({ guild }: { guild: { id: string; name: string } }) {
  const utils = api.useUtils();
  const [opened, { open, close }] = useDisclosure(false);
  const [search, setSearch] = useState("");
  // What the server searches for: what was typed, not the picked member's label the field then shows.
  const [term, setTerm] = useState("");
  const [query] = useDebouncedValue(term, 250);
  const [picked, setPicked] = useState<Candidate | null>(null);
  const [typed, setTyped] = useState("");
  const state = api.guild.ownerCandidates.useQuery({ guildId: guild.id, query }, { placeholderData: (previous) => previous });
  const found = state.data?.candidates ?? [];
  const candidates = picked && !found.some((candidate) => candidate.id === picked.id) ? [picked, ...found] : found;
  const options = candidates.map((candidate) => ({ value: candidate.id, label: labelOf(candidate) }));
  const denial = state.data?.denial ?? null;

  const reset = () => {
    setPicked(null);
    setSearch("");
    setTerm("");
    setTyped("");
    close();
  };
  const transfer = api.guild.modify.useMutation({
    onSuccess: async () => {
      notifySuccess(`${picked?.name ?? "The member"} now owns ${guild.name}.`, "Ownership transferred");
      reset();
      // Every section's permissions change with the owner.
      await utils.invalidate();
    },
    onError: (error) => notifyFailure("Could not transfer ownership", error),
  });

  return (
    <SectionCard title="Ownership" id="ownership">
      <Group justify="space-between" wrap="wrap" gap="md">
        <div>
          <Text fw={500}>Transfer ownership</Text>
          <Text size="sm" c="dimmed">
            {state.data?.owner ? `${state.data.owner} owns this guild. ` : null}
            {denial ?? "Make another member the owner. You keep your roles but lose the owner's powers, such as deleting the guild."}
          </Text>
        </div>
        <Button color="red" variant="light" leftSection={<IconCrown size={16} />} disabled={!state.data || denial !== null} onClick={open}>
          Transfer ownership
        </Button>
      </Group>
      <Modal opened={opened} onClose={reset} title="Transfer ownership">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (picked && typed === guild.name) transfer.mutate({ guildId: guild.id, body: { owner_id: picked.id } });
          }}
        >
          <Stack gap="md">
            <Text size="sm">
              The new owner can do anything in <b>{guild.name}</b>, including deleting it. You lose the owner&apos;s powers and keep only what your roles give
              you; only the new owner can hand it back.
            </Text>
            <Select
              label="New owner"
              placeholder="Search members by name"
              searchable
              searchValue={search}
              onSearchChange={(value) => {
                setSearch(value);
                if (!options.some((option) => option.label === value)) setTerm(value);
              }}
              value={picked?.id ?? null}
              onChange={(id) => setPicked(candidates.find((candidate) => candidate.id === id) ?? null)}
              // The server searches; every option it returns is shown.
              filter={({ options: shown }) => shown}
              data={options}
              nothingFoundMessage={state.isFetching ? "Searching…" : "No member matches"}
              data-autofocus
            />
            <TextInput label="Type the guild name to confirm" value={typed} onChange={(event) => setTyped(event.currentTarget.value)} autoComplete="off" />
            <Group justify="flex-end">
              <Button variant="default" onClick={reset}>
                Cancel
              </Button>
              <Button type="submit" color="red" disabled={!picked || typed !== guild.name} loading={transfer.isPending}>
                Transfer ownership
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </SectionCard>
  );
}
