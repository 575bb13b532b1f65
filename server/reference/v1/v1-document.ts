/** A finished reading → the v1 `document` body (spec §2.2), stored with the job once completed. */
import type { FieldResult } from '@extraction-review/document-text/api-types';
import type { Orientation } from '@extraction-review/document-text/ocr/orientation';
import type { V1Product } from '../models/model-catalog';
import { pagePrediction, toV1Prediction, type V1PredictionJson } from './v1-prediction';
import { v1Timestamp } from '@extraction-review/contract/v1/api-request';

export interface V1DocumentJson {
  id: string;
  name: string;
  n_pages: number;
  inference: {
    started_at: string;
    finished_at: string;
    processing_time: number;
    is_rotation_applied: boolean;
    extras: Record<string, never>;
    prediction: V1PredictionJson;
    pages: {
      id: number;
      orientation: { value: Orientation | null };
      extras: Record<string, never>;
      prediction: V1PredictionJson;
    }[];
    product: { name: string; version: string; features: string[]; type: string };
  };
}

export interface V1Reading {
  pageCount: number;
  fields: Record<string, FieldResult>;
  orientations: (Orientation | null)[];
  /**
   * Pages read from a copy already turned upright (v1-job-service.ts): their boxes are in the upright
   * frame from the start. Absent: every page was read as stored.
   */
  readUpright?: readonly boolean[];
}

export function v1Document(input: {
  documentId: string;
  filename: string;
  product: V1Product;
  reading: V1Reading;
  startedAt: Date;
  finishedAt: Date;
}): V1DocumentJson {
  const { product, reading } = input;
  const orientations = Array.from({ length: reading.pageCount }, (_, i) => reading.orientations[i] ?? null);
  // Polygons are turned upright only when the product says so; the orientations are reported either way.
  const applied = product.rotation_applied;
  // The turn that brings each page's boxes into the frame the product answers in.
  const turns = orientations.map((o, i): Orientation | null => {
    if (o === null) return null;
    const upright = reading.readUpright?.[i] ?? false;
    if (applied) return upright ? 0 : o;
    return upright ? (((360 - o) % 360) as Orientation) : 0;
  });
  const prediction = toV1Prediction(product, reading.fields, { orientations: turns });
  return {
    id: input.documentId,
    name: input.filename,
    n_pages: reading.pageCount,
    inference: {
      started_at: v1Timestamp(input.startedAt),
      finished_at: v1Timestamp(input.finishedAt),
      processing_time: Math.round(input.finishedAt.getTime() - input.startedAt.getTime()) / 1000,
      // Whether the polygons are in their page's upright frame (v1-prediction.ts). Only here, as in
      // the recorded bodies: the document itself has no such key.
      is_rotation_applied: applied,
      extras: {},
      prediction,
      pages: orientations.map((value, id) => ({
        id,
        orientation: { value },
        extras: {},
        prediction: pagePrediction(prediction, id),
      })),
      product: {
        name: `${product.account}/${product.name}`,
        version: product.full_version ?? `${product.version}.0`,
        features: product.fields.map((field) => field.name),
        type: product.type,
      },
    },
  };
}
