import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { settingsEndpoints } from '../../contract/servers';
import { Card } from '../../components/ui/card';
import { PermissionHint, useCan } from '../../lib/permissions';
import { call } from '../../lib/http';
import { invalidateServer, useServer } from '../servers/api';
import { T, useT } from './messages';

/**
 * The container image, one of the egg's list (reference panel: hidden when the egg has one, and
 * not changeable once an administrator set an image outside the list). Applies on the next start.
 */
export function ImageSelect({ images }: { images: Record<string, string> }) {
  const server = useServer();
  const t = useT();
  const canChange = useCan('startup.docker-image');
  const qc = useQueryClient();
  const [saved, setSaved] = useState(false);
  const hintId = useId();
  const change = useMutation({
    mutationFn: (image: string) => call(settingsEndpoints.dockerImage, { params: { server: server.uuid }, body: { docker_image: image } }),
    onSuccess: () => {
      setSaved(true);
      return invalidateServer(qc, server);
    },
  });
  const entries = Object.entries(images);
  if (entries.length <= 1) return null;
  const custom = !entries.some(([, image]) => image === server.docker_image);

  return (
    <Card title={t('startup.image.title')}>
      {custom ? (
        <p className="text-sm text-zinc-300">
          <T k="startup.image.custom" values={{ image: server.docker_image }} components={{ 0: <span className="font-mono break-all" /> }} />
        </p>
      ) : (
        <div className="space-y-2">
          <label htmlFor="docker-image" className="block text-sm text-zinc-300">
            {server.aerie_runtime ? t('startup.image.aerieHint') : t('startup.image.hint')}
          </label>
          <select
            id="docker-image"
            className="w-full rounded-md bg-zinc-900 px-3 py-2 text-sm text-zinc-100 ring-1 ring-zinc-700 disabled:opacity-60"
            value={change.isPending ? change.variables : server.docker_image}
            disabled={!canChange || change.isPending}
            aria-describedby={canChange ? undefined : hintId}
            onChange={(e) => {
              setSaved(false);
              change.mutate(e.target.value);
            }}
          >
            {entries.map(([name, image]) => (
              <option key={image} value={image}>
                {name} ({image})
              </option>
            ))}
          </select>
          <PermissionHint id={hintId} permission="startup.docker-image" />
          <p role="status" className="text-xs text-zinc-400">
            {change.isPending ? t('startup.saving') : saved ? t('startup.image.saved') : ''}
          </p>
          {change.isError && (
            <p role="alert" className="text-sm text-red-300">
              {change.error.message}
            </p>
          )}
        </div>
      )}
    </Card>
  );
}
