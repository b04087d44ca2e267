import * as z from 'zod/mini';
import { configJson, eggName, eggStartup, eggStop, IMAGE_REFERENCE, MAX_EGG_IMAGES } from '../../contract/egg-fields';
import type { EggUpdate } from '../../contract/egg-writes';
import type { AdminEgg } from '../../contract/eggs';
import { t } from './messages';

/*
 * The egg edit form: the contract's own fields, with the images and lists as text (one per
 * line, images as `Name|image`), turned back into the request body on submit. The form's own
 * messages are read when a check fails, so they are in the language of that moment.
 */

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

export function imagesOf(text: string): Record<string, string> {
  return Object.fromEntries(
    lines(text).map((line) => {
      const bar = line.indexOf('|');
      return bar === -1 ? [line, line] : [line.slice(0, bar).trim(), line.slice(bar + 1).trim()];
    }),
  );
}

export const eggFormSchema = z.object({
  name: eggName,
  description: z.string().check(z.maxLength(65_535, { error: () => t('adminEggs.form.descriptionTooLong') })),
  startup: eggStartup,
  config_stop: eggStop,
  config_startup: configJson('config startup'),
  images: z.string().check(
    z.refine((text) => lines(text).length > 0, { error: () => t('adminEggs.form.imagesRequired') }),
    z.refine((text) => lines(text).length <= MAX_EGG_IMAGES, { error: () => t('adminEggs.form.imagesTooMany', { max: MAX_EGG_IMAGES }) }),
    z.refine((text) => Object.values(imagesOf(text)).every((image) => IMAGE_REFERENCE.test(image)), { error: () => t('adminEggs.form.imageLine') }),
  ),
  file_denylist: z.string(),
});
export type EggForm = z.infer<typeof eggFormSchema>;

export const toForm = (egg: AdminEgg): EggForm => ({
  name: egg.name,
  description: egg.description ?? '',
  startup: egg.startup,
  config_stop: egg.config.stop ?? 'stop',
  config_startup: JSON.stringify(egg.config.startup ?? {}, null, 2),
  images: Object.entries(egg.docker_images)
    .map(([name, image]) => `${name}|${image}`)
    .join('\n'),
  file_denylist: egg.config.file_denylist.join('\n'),
});

export const toBody = (form: EggForm): EggUpdate => ({
  name: form.name,
  description: form.description || null,
  startup: form.startup,
  config_stop: form.config_stop,
  config_startup: form.config_startup,
  docker_images: imagesOf(form.images),
  file_denylist: lines(form.file_denylist),
});
