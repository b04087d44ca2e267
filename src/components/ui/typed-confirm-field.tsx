import { T } from '../messages';
import { TextField } from './field';

/** "Type <name> to confirm": the field a dialog for something that cannot be undone asks to be filled. */
export function TypedConfirmField({ expected, value, onChange }: { expected: string; value: string; onChange: (value: string) => void }) {
  return (
    <TextField
      label={<T k="ui.typedConfirm" values={{ expected }} components={{ 0: <span className="font-mono text-zinc-100" /> }} />}
      autoComplete="off"
      spellCheck={false}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
