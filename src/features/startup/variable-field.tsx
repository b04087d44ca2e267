import { useEffect, useId, useRef, useState } from 'react';
import type { EggVariable } from '../../contract/startup';
import { isBooleanRule, ruleChoices } from '../../contract/variable-rules';
import { Badge } from '../../components/ui/badge';
import { cn } from '../../components/ui/cn';
import { Switch } from '../../components/ui/switch';
import { ApiError } from '../../lib/http';
import { t as translate, useT } from './messages';

/** How long typing pauses before a value is saved. */
export const SAVE_DELAY_MS = 600;

type Status = { kind: 'idle' | 'saving' | 'saved' } | { kind: 'failed'; message: string };

export interface VariableFieldProps {
  variable: EggVariable;
  /** False when the caller lacks startup.update; the egg's own lock is `is_editable`. */
  canUpdate: boolean;
  /** The id of the hint saying which permission `canUpdate` lacks, for the read-only control's description. */
  hintId?: string;
  /** Saves the value; rejects with the server's refusal. */
  save: (key: string, value: string) => Promise<unknown>;
  /** Told of every edit at once, for the command preview. */
  onDraft: (key: string, value: string) => void;
}

/**
 * One startup variable: a text field saved once typing pauses, a switch for a `boolean` rule or a
 * select for an `in:` rule saved at once, each with its own saved/failed state and the server's
 * message under it.
 */
export function VariableField({ variable, canUpdate, hintId, save, onDraft }: VariableFieldProps) {
  const id = useId();
  const t = useT();
  const key = variable.env_variable;
  const readOnly = !variable.is_editable || !canUpdate;
  const [draft, setDraft] = useState(variable.server_value ?? '');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pending = useRef<(() => void) | undefined>(undefined);
  // Only the latest save's answer counts: an older one finishing late must not overwrite its state.
  const sequence = useRef(0);

  const run = (value: string) => {
    const mine = ++sequence.current;
    pending.current = undefined;
    setStatus({ kind: 'saving' });
    save(key, value).then(
      () => mine === sequence.current && setStatus({ kind: 'saved' }),
      (error: unknown) => {
        if (mine !== sequence.current) return;
        setStatus({ kind: 'failed', message: messageOf(error, key) });
        // A refused value does not run: the preview goes back to the saved one (the field keeps the text to fix).
        onDraft(key, variable.server_value ?? '');
      },
    );
  };

  const change = (value: string, delay: number) => {
    setDraft(value);
    onDraft(key, value);
    // What was saved (or refused) is no longer what the field holds.
    setStatus({ kind: 'idle' });
    clearTimeout(timer.current);
    pending.current = () => run(value);
    timer.current = setTimeout(() => pending.current?.(), delay);
  };

  // Leaving the page before the pause ends still saves what was typed.
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      pending.current?.();
    },
    [],
  );

  const choices = ruleChoices(variable.rules);
  const isSwitch = isBooleanRule(variable.rules);
  const describedBy = `${id}-status`;
  const controlDescribedBy = !canUpdate && hintId ? `${describedBy} ${hintId}` : describedBy;
  let control;
  if (isSwitch) {
    control = (
      <Switch
        checked={draft === '1' || draft === 'true'}
        onCheckedChange={(on) => change(on ? '1' : '0', 0)}
        label={<span className="sr-only">{variable.name}</span>}
        disabled={readOnly}
      />
    );
  } else if (choices) {
    control = (
      <select
        id={id}
        value={draft}
        disabled={readOnly}
        aria-describedby={controlDescribedBy}
        aria-invalid={status.kind === 'failed' || undefined}
        onChange={(e) => change(e.target.value, 0)}
        className={inputClass(status)}
      >
        {!choices.includes(draft) && <option value={draft}>{draft || t('startup.variable.none')}</option>}
        {choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    );
  } else {
    control = (
      <input
        id={id}
        value={draft}
        readOnly={readOnly}
        aria-describedby={controlDescribedBy}
        aria-invalid={status.kind === 'failed' || undefined}
        placeholder={variable.default_value}
        onChange={(e) => change(e.target.value, SAVE_DELAY_MS)}
        className={cn(inputClass(status), 'font-mono', readOnly && 'cursor-not-allowed')}
      />
    );
  }

  return (
    <div role="group" aria-labelledby={`${id}-label`} className="flex flex-col gap-1.5 rounded-lg bg-zinc-900 p-4 ring-1 ring-zinc-800">
      <div className="flex items-center justify-between gap-2">
        {/* A switch is named by its own label; the others by this one. */}
        {isSwitch ? (
          <span id={`${id}-label`} className="text-sm font-medium text-zinc-200">
            {variable.name}
          </span>
        ) : (
          <label id={`${id}-label`} htmlFor={id} className="text-sm font-medium text-zinc-200">
            {variable.name}
          </label>
        )}
        {readOnly && <Badge>{t('startup.variable.readOnly')}</Badge>}
      </div>
      {control}
      <p className="text-xs text-zinc-400">
        {variable.description} <code className="font-mono text-zinc-300">{key}</code>
      </p>
      <p
        id={describedBy}
        role={status.kind === 'failed' ? 'alert' : 'status'}
        className={cn('min-h-5 text-sm', status.kind === 'failed' ? 'text-red-400' : 'text-zinc-400')}
      >
        {status.kind === 'saving'
          ? t('startup.saving')
          : status.kind === 'saved'
            ? t('startup.variable.saved')
            : status.kind === 'failed'
              ? status.message
              : ''}
      </p>
    </div>
  );
}

/** A locked value keeps the normal text colour: greyed, it would pass for the placeholder of an empty field. */
function inputClass(status: Status): string {
  return cn(
    'min-h-10 rounded-md bg-zinc-950 px-3 py-2 text-sm text-zinc-100 ring-1 ring-inset placeholder:text-zinc-400 focus:outline-none focus:ring-2 disabled:cursor-not-allowed',
    status.kind === 'failed' ? 'ring-red-500 focus:ring-red-400' : 'ring-zinc-700 focus:ring-sky-500',
  );
}

/** The server's message for this variable's field, else the refusal's own. */
function messageOf(error: unknown, key: string): string {
  if (error instanceof ApiError) return error.fieldErrors()[key] ?? error.message;
  return error instanceof Error ? error.message : translate('startup.variable.saveFailed');
}
