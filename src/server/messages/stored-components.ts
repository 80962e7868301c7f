import { ComponentType } from "discord-api-types/v10";

type Component = Record<string, unknown> & { type: number; id?: number };

const SELECTS: readonly number[] = [
  ComponentType.StringSelect,
  ComponentType.UserSelect,
  ComponentType.RoleSelect,
  ComponentType.MentionableSelect,
  ComponentType.ChannelSelect,
];

// What the platform fills in on components the request left it out of.
function withDefaults(component: Component): Component {
  if (SELECTS.includes(component.type)) return { min_values: 1, max_values: 1, ...component };
  switch (component.type) {
    case ComponentType.Container:
      return { accent_color: null, spoiler: false, ...component };
    case ComponentType.Thumbnail:
      return { description: null, spoiler: false, ...component };
    case ComponentType.Separator:
      return { spacing: 1, divider: true, ...component };
    case ComponentType.File:
      return { spoiler: false, ...component };
    default:
      return component;
  }
}

/**
 * Components as the platform stores and answers them: every component numbered (the ids
 * the request left out are the next free ones, depth first, as the platform fills them) and
 * the optional fields its answers always carry given their defaults.
 */
export function toStoredComponents(components: readonly unknown[]): Component[] {
  const taken = new Set<number>();
  const collect = (list: readonly Component[]) => {
    for (const component of list) {
      if (typeof component.id === "number") taken.add(component.id);
      if (Array.isArray(component.components)) collect(component.components as Component[]);
      if (component.accessory) collect([component.accessory as Component]);
    }
  };
  collect(components as Component[]);
  let next = 1;
  const nextId = () => {
    while (taken.has(next)) next++;
    taken.add(next);
    return next;
  };
  const number = (component: Component): Component => {
    const filled = withDefaults({ ...component, id: component.id ?? nextId() });
    if (Array.isArray(filled.components)) filled.components = (filled.components as Component[]).map(number);
    if (filled.accessory) filled.accessory = number(filled.accessory as Component);
    return filled;
  };
  return (components as Component[]).map(number);
}
