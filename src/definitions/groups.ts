/**
 * How help and completion present the command tree: the sections of the top-level help (by a
 * command's first word) and a real description for each command group. Plain data, read by the
 * fast path.
 */

/** Sections of `parcels --help`, in order; a command goes where its first word is listed. */
export const HELP_SECTIONS: readonly { title: string; first: readonly string[] }[] = [
  { title: 'Parcels, their events and attempts', first: ['create', 'get', 'list', 'patch', 'events', 'attempts'] },
  { title: 'Following a parcel', first: ['track'] },
  { title: 'Bulk work and the outbox', first: ['outbox', 'batches'] },
  { title: 'Account, reference and raw requests', first: ['validate-address', 'usage', 'couriers', 'overview', 'reference', 'oracle', 'api'] },
  { title: 'The local sandbox', first: ['sandbox'] },
  { title: 'Set-up: keys, profiles, settings, checks', first: ['auth', 'config', 'doctor', 'completion', 'version'] },
];

/** Groups that are not commands themselves (`parcels events …`): what their commands are for. */
export const GROUP_DESCRIPTIONS: Readonly<Record<string, string>> = {
  events: "A parcel's status events: add one (or many with --from), list them",
  attempts: "A parcel's delivery attempts: add one (or many with --from), list them",
  auth: 'API keys and profiles: log in, check the key, print it, switch, log out',
  config: "A profile's settings: list, get, set, unset, and the default profile",
  sandbox: 'The local sandbox: serve it, reset it, move its clock, simulate parcels, read its log',
};

/** A group's description, or a neutral one for a group added without one. */
export function groupDescription(group: string): string {
  return GROUP_DESCRIPTIONS[group] ?? `the ${group} commands`;
}
