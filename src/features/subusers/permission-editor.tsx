import { useId, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { PERMISSION_GROUPS, permits, type Permission, type PermissionGroup } from '../../contract/permissions';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { flattenCatalogue, usePermissionDescriber, useServerPermissions } from '../../lib/permissions';
import { accountQueries } from '../account/api';
import { PRESETS, type Preset } from './presets';
import { useT } from './messages';

/** `websocket.connect` is always granted by the panel, so its group is not offered. */
const GROUPS = (Object.keys(PERMISSION_GROUPS) as PermissionGroup[]).filter((g) => g !== 'websocket');

type Selection = ReadonlySet<string>;

function withAll(selection: Selection, permissions: readonly string[], on: boolean): Selection {
  const next = new Set(selection);
  for (const p of permissions) {
    if (on) next.add(p);
    else next.delete(p);
  }
  return next;
}

/** A select-all box over `permissions` (only those the editor may grant), indeterminate when partly chosen. */
function SelectAll({
  label,
  permissions,
  value,
  onChange,
  disabled,
  className,
}: {
  label: string;
  permissions: readonly string[];
  value: Selection;
  onChange: (next: Selection) => void;
  disabled: boolean;
  className?: string;
}) {
  const id = useId();
  const chosen = permissions.filter((p) => value.has(p)).length;
  const all = permissions.length > 0 && chosen === permissions.length;
  return (
    <span className={`flex items-center gap-2 ${className ?? ''}`}>
      <Checkbox
        id={id}
        checked={all}
        indeterminate={chosen > 0 && !all}
        disabled={disabled || permissions.length === 0}
        onChange={(e) => onChange(withAll(value, permissions, e.target.checked))}
      />
      <label htmlFor={id} className="text-sm text-zinc-300">
        {label}
      </label>
    </span>
  );
}

/**
 * Chooses a subuser's permissions, grouped as the panel groups them, each described in the language
 * shown (in English the panel's own text, so it reads the same against a reference panel).
 * Permissions the editor lacks are disabled and say why; `readOnly` disables everything.
 */
export function PermissionEditor({
  value,
  onChange,
  readOnly = false,
}: {
  value: Selection;
  onChange: (next: Selection) => void;
  readOnly?: boolean;
}) {
  const t = useT();
  const granted = useServerPermissions();
  const catalogue = useQuery(accountQueries.permissionCatalogue()).data;
  const describe = usePermissionDescriber(useMemo(() => catalogue && flattenCatalogue(catalogue), [catalogue]));
  const [presetNote, setPresetNote] = useState<string | null>(null);
  const mayGrant = (p: Permission) => permits(granted, p);
  const grantable = GROUPS.flatMap((g) => PERMISSION_GROUPS[g].filter(mayGrant));

  const applyPreset = (preset: Preset) => {
    const given = preset.permissions.filter(mayGrant);
    const left = preset.permissions.filter((p) => !mayGrant(p));
    onChange(new Set(given));
    const name = t(preset.name);
    setPresetNote(
      left.length === 0
        ? t('subusers.editor.presetChosen', { preset: name, count: given.length })
        : t('subusers.editor.presetLeftOut', { preset: name, permissions: left.join(', ') }),
    );
  };

  return (
    <div className="flex flex-col gap-3">
      {!readOnly && (
        <div className="flex flex-col gap-2">
          <div role="group" aria-label={t('subusers.editor.presets')} className="flex flex-wrap items-center gap-2">
            <span className="text-sm text-zinc-400">{t('subusers.editor.startFrom')}</span>
            {PRESETS.map((preset) => (
              <Button key={preset.name} variant="secondary" size="sm" title={t(preset.description)} onClick={() => applyPreset(preset)}>
                {t(preset.name)}
              </Button>
            ))}
          </div>
          {presetNote && (
            <p role="status" className="text-xs text-zinc-400">
              {presetNote}
            </p>
          )}
          <SelectAll label={t('subusers.editor.selectAll')} permissions={grantable} value={value} onChange={onChange} disabled={readOnly} />
        </div>
      )}
      <div className="grid max-h-[60vh] items-start gap-3 overflow-y-auto pr-1 lg:grid-cols-2">
        {GROUPS.map((group) => {
          const about = describe(`${group}.*`);
          const permissions: readonly Permission[] = PERMISSION_GROUPS[group];
          return (
            <fieldset key={group} className="rounded-md bg-zinc-950/60 p-3 ring-1 ring-zinc-800">
              <legend className="sr-only">{group}</legend>
              <div className="flex items-center justify-between gap-2">
                <p aria-hidden className="text-sm font-semibold text-zinc-100 capitalize">
                  {group}
                </p>
                {!readOnly && (
                  <SelectAll
                    label={t('subusers.editor.allGroup', { group })}
                    permissions={permissions.filter(mayGrant)}
                    value={value}
                    onChange={onChange}
                    disabled={readOnly}
                    className="shrink-0"
                  />
                )}
              </div>
              {about && <p className="text-xs text-zinc-400">{about}</p>}
              <ul className="mt-2 space-y-2">
                {permissions.map((p) => (
                  <PermissionBox
                    key={p}
                    permission={p}
                    description={describe(p)}
                    checked={value.has(p)}
                    lacked={!mayGrant(p)}
                    readOnly={readOnly}
                    onToggle={(on) => onChange(withAll(value, [p], on))}
                  />
                ))}
              </ul>
            </fieldset>
          );
        })}
      </div>
    </div>
  );
}

function PermissionBox({
  permission,
  description,
  checked,
  lacked,
  readOnly,
  onToggle,
}: {
  permission: string;
  description: string | undefined;
  checked: boolean;
  lacked: boolean;
  readOnly: boolean;
  onToggle: (on: boolean) => void;
}) {
  const t = useT();
  const id = useId();
  const note = !readOnly && lacked ? t('subusers.editor.lacked') : null;
  return (
    <li className="flex items-start gap-2">
      <Checkbox
        id={id}
        className="mt-0.5"
        checked={checked}
        disabled={readOnly || lacked}
        aria-describedby={`${id}-d`}
        onChange={(e) => onToggle(e.target.checked)}
      />
      <div className="min-w-0">
        <label htmlFor={id} className={`font-mono text-sm ${readOnly || lacked ? 'text-zinc-400' : 'text-zinc-200'}`}>
          {permission}
        </label>
        <p id={`${id}-d`} className="text-xs text-zinc-400">
          {description}
          {note && <span className="block text-amber-300/90">{note}</span>}
        </p>
      </div>
    </li>
  );
}
