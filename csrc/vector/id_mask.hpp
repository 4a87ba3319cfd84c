// id_mask.hpp — keeps a dense [B, A] mask of legal global action ids in step
// with a batch's legal rows, touching only the ids that change (the kernel of
// polyenv._core.update_id_mask: TribesVectorEnv's action_mode="global").
#pragma once
#include <cstdint>

namespace polyenv {

// Row-major buffers: mask [rows, limit]; ids / marked [rows, width]; counts /
// marked_counts [rows]. Checks every count (in [0, width]) and id (in [0,
// limit)) of both row sets first (InvalidArgument, nothing written), then
// clears the marked ids, sets the first counts[r] ids of ids[r] and records
// them as the new marked set.
void update_id_mask(int8_t* mask, const int32_t* ids, const int32_t* counts, int32_t* marked, int32_t* marked_counts,
                    int64_t rows, int64_t width, int64_t limit);

}  // namespace polyenv
