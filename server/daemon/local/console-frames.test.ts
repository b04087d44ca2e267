import { describe, expect, it } from 'vitest';
import { frameOf, receivePermission } from './console-frames';

describe('console frames', () => {
  it("frames a backup's progress as backup progress:<uuid>, for those who may read backups only", () => {
    const frame = frameOf({ type: 'backup progress', backup: 'b-1', progress: 0.5 });
    expect(frame).toEqual({ event: 'backup progress:b-1', args: [JSON.stringify({ uuid: 'b-1', progress: 0.5 })] });
    expect(receivePermission(frame.event)).toBe('backup.read');
    expect(receivePermission('backup completed:b-1')).toBe('backup.read');
    expect(receivePermission('console output')).toBeNull();
  });
});
