import { useEffect, useState } from 'react';
import { Spinner } from '../../components/ui/spinner';

/** The otpauth:// URI as a QR code; the QR library loads only here, once setup has started. */
export function QrCode({ value }: { value: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode')
      .then((qr) => qr.toString(value, { type: 'svg', margin: 2, width: 192 }))
      .then((out) => live && setSvg(out))
      .catch(() => live && setSvg(''));
    return () => {
      live = false;
    };
  }, [value]);
  return (
    <div role="img" aria-label="QR code for your authenticator app" className="grid size-48 shrink-0 place-items-center rounded-md bg-white">
      {svg === null ? (
        <Spinner className="size-6 text-zinc-500" label="" />
      ) : svg ? (
        <div className="size-48" dangerouslySetInnerHTML={{ __html: svg }} />
      ) : (
        <p className="p-3 text-center text-xs text-zinc-700">The QR code could not be drawn: type the secret instead.</p>
      )}
    </div>
  );
}
