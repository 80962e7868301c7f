"use client";

import { Select } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useState } from "react";
import { displayName } from "~/components/members/member-display.ts";
import { api } from "~/trpc/react.tsx";

/** A member chosen by name. */
export type PickedMember = { id: string; name: string };

type Props = {
  guildId: string;
  label: string;
  placeholder?: string;
  /** Members already chosen elsewhere, left out of the choices. */
  exclude?: ReadonlySet<string>;
  disabled?: boolean;
  onPick: (member: PickedMember) => void;
};

/** Finds a member by the words of their name and hands them over; the field clears after each pick. */
export function MemberPicker({ guildId, label, placeholder = "Type a name", exclude, disabled, onPick }: Props) {
  const [search, setSearch] = useState("");
  const [words] = useDebouncedValue(search.trim(), 250);
  const found = api.member.list.useQuery({ guildId, search: words, limit: 10 }, { enabled: !disabled, placeholderData: (previous) => previous });
  const members = (found.data?.rows ?? []).map((row) => ({ id: row.member.user.id, name: displayName(row.member), username: row.member.user.username }));
  const choices = members.filter((m) => !exclude?.has(m.id));
  return (
    <Select
      label={label}
      placeholder={placeholder}
      searchable
      clearable={false}
      disabled={disabled}
      value={null}
      searchValue={search}
      onSearchChange={setSearch}
      // The server filters by name; the list shows what it found.
      filter={({ options }) => options}
      nothingFoundMessage={found.isFetching ? "Searching…" : "No member found"}
      data={choices.map((m) => ({ value: m.id, label: m.name === m.username ? m.name : `${m.name} (@${m.username})` }))}
      onChange={(id) => {
        const member = members.find((m) => m.id === id);
        if (!member) return;
        onPick({ id: member.id, name: member.name });
        setSearch("");
      }}
    />
  );
}
