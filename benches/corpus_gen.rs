//! A deterministic generator of realistic CUDA and HLSL source files for bankcheck's
//! throughput benchmark and determinism test.
//!
//! Every file is built from a seeded pseudo-random stream of its own (derived from the
//! corpus seed and the file's index), so a corpus of `k * n` bytes starts with exactly
//! the files of a corpus of `n` bytes: the benchmark's scaling table takes prefixes of
//! one generated corpus. Files mix the idioms bankcheck understands (tiled transposes
//! with and without padding, tree reductions, strided and XOR-swizzled accesses,
//! `float4`/`double` arrays, `#define`/`constexpr` sizes, `<<<grid, dim3(..)>>>`
//! launches, HLSL `groupshared` with `[numthreads]`, `SV_GroupThreadID`,
//! `SV_GroupIndex` and `[unroll]` loops) with a bulk of ordinary host and shader code
//! that touches no shared memory. Sizes range from 1 KB to 200 KB.

#![allow(dead_code)]

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// One generated file: where it was written and how many bytes it holds.
#[derive(Debug, Clone)]
pub struct GenFile {
    pub path: PathBuf,
    pub bytes: u64,
}

/// SplitMix64: small, fast and fully deterministic across platforms.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// A value in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `percent / 100`.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// The share of code chunks that are shared-memory kernels, in percent, by default.
///
/// Calibrated on the real-world corpus of docs/coverage.md: its files that declare
/// shared memory (7.5 MB) hold 3,089 access sites, about 410 per MB; with every file
/// opening with a kernel, this share gives the generated files about 425 per MB (see
/// docs/performance.md). Files with no shared memory at all are not generated.
pub const KERNEL_PERCENT: u64 = 3;

/// Writes files into `dir` until at least `target_bytes` are written, and returns them
/// in generation order. The same `(target_bytes, seed)` always gives the same files.
pub fn generate(dir: &Path, target_bytes: u64, seed: u64) -> io::Result<Vec<GenFile>> {
    generate_with(dir, target_bytes, seed, KERNEL_PERCENT)
}

/// [`generate`] with `kernel_percent` of the code chunks being kernels (the rest is host
/// or shader code without shared memory; every file has at least one kernel).
pub fn generate_with(
    dir: &Path,
    target_bytes: u64,
    seed: u64,
    kernel_percent: u64,
) -> io::Result<Vec<GenFile>> {
    let mut out = Vec::new();
    let mut total = 0u64;
    let mut index = 0u64;
    while total < target_bytes {
        let (name, text) = file_text_with(seed, index, kernel_percent);
        let sub = dir.join(format!("d{:03}", index / 100));
        if index.is_multiple_of(100) {
            fs::create_dir_all(&sub)?;
        }
        let path = sub.join(name);
        fs::write(&path, text.as_bytes())?;
        total += text.len() as u64;
        out.push(GenFile {
            path,
            bytes: text.len() as u64,
        });
        index += 1;
    }
    Ok(out)
}

/// The name and contents of file number `index` of the corpus seeded with `seed`.
pub fn file_text(seed: u64, index: u64) -> (String, String) {
    file_text_with(seed, index, KERNEL_PERCENT)
}

/// [`file_text`] with `kernel_percent` of the code chunks being kernels.
pub fn file_text_with(seed: u64, index: u64, kernel_percent: u64) -> (String, String) {
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0xA24B_AED4_963E_E407).rotate_left(17));
    // Mostly small files, a few very large ones: 1-6 KB, 6-40 KB, 40-200 KB.
    let size = match rng.below(100) {
        0..=69 => rng.range(1_000, 6_000),
        70..=94 => rng.range(6_000, 40_000),
        _ => rng.range(40_000, 200_000),
    } as usize;
    let cuda = rng.chance(60);
    let ext = if cuda {
        *rng.pick(&["cu", "cu", "cu", "cu", "cu", "cu", "cu", "cuh", "cuh", "h"])
    } else {
        *rng.pick(&["hlsl", "hlsl", "hlsl", "hlsl", "hlsl", "hlsli", "fx"])
    };
    let stem = *rng.pick(&[
        "transpose",
        "reduce",
        "conv",
        "gemm",
        "blur",
        "scan",
        "histogram",
        "stencil",
        "fft",
        "sort",
        "bloom",
        "tonemap",
    ]);
    let name = format!("{stem}_{index:05}.{ext}");
    let mut text = String::with_capacity(size + 4096);
    let mut id = 0u32;
    if cuda {
        cuda_prelude(&mut rng, &mut text, index);
        while text.len() < size {
            id += 1;
            if id == 1 || rng.chance(kernel_percent) {
                cuda_kernel(&mut rng, &mut text, id);
            } else {
                cuda_host(&mut rng, &mut text, id);
            }
        }
    } else {
        hlsl_prelude(&mut rng, &mut text, index);
        while text.len() < size {
            id += 1;
            if id == 1 || rng.chance(kernel_percent) {
                hlsl_kernel(&mut rng, &mut text, id);
            } else {
                hlsl_bulk(&mut rng, &mut text, id);
            }
        }
    }
    (name, text)
}

/// Substitutes `@KEY@` placeholders of `template` and appends the result.
fn emit(text: &mut String, template: &str, subs: &[(&str, String)]) {
    let mut s = template.to_string();
    for (k, v) in subs {
        s = s.replace(&format!("@{k}@"), v);
    }
    text.push_str(&s);
    text.push('\n');
}

fn cuda_prelude(rng: &mut Rng, text: &mut String, index: u64) {
    emit(
        text,
        "// Copyright (c) 2024 The Sample Authors. All rights reserved.
// Generated file @N@: kernels and host drivers for the image pipeline.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_CHECK(call)                                                        \\
    do {                                                                        \\
        cudaError_t err_ = (call);                                              \\
        if (err_ != cudaSuccess) {                                              \\
            fprintf(stderr, \"CUDA error %s at %s:%d\\n\",                        \\
                    cudaGetErrorString(err_), __FILE__, __LINE__);              \\
            exit(EXIT_FAILURE);                                                 \\
        }                                                                       \\
    } while (0)
",
        &[("N", index.to_string())],
    );
    if rng.chance(50) {
        text.push_str("#define WARP_SIZE 32\n#define FULL_MASK 0xffffffffu\n\n");
    }
}

fn cuda_kernel(rng: &mut Rng, text: &mut String, id: u32) {
    let tile = *rng.pick(&[16u32, 32, 32, 64]);
    let rows = *rng.pick(&[4u32, 8, 8, 16]);
    let pad = *rng.pick(&[0u32, 1, 1, 2]);
    let block = *rng.pick(&[64u32, 128, 256, 256, 512]);
    let stride = *rng.pick(&[1u32, 2, 3, 4, 8, 16, 17, 32, 33]);
    let subs = vec![
        ("ID", id.to_string()),
        ("TILE", tile.to_string()),
        ("ROWS", rows.to_string()),
        ("PAD", pad.to_string()),
        ("BLOCK", block.to_string()),
        ("STRIDE", stride.to_string()),
    ];
    let template = match rng.below(9) {
        0 => {
            "#define TILE_DIM_@ID@ @TILE@
#define BLOCK_ROWS_@ID@ @ROWS@

// Transposes a matrix through a padded shared-memory tile.
__global__ void transpose_@ID@(float* odata, const float* idata, int width, int height)
{
    __shared__ float tile[TILE_DIM_@ID@][TILE_DIM_@ID@ + @PAD@];

    int x = blockIdx.x * TILE_DIM_@ID@ + threadIdx.x;
    int y = blockIdx.y * TILE_DIM_@ID@ + threadIdx.y;
    for (int j = 0; j < TILE_DIM_@ID@; j += BLOCK_ROWS_@ID@) {
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    }
    __syncthreads();

    x = blockIdx.y * TILE_DIM_@ID@ + threadIdx.x;
    y = blockIdx.x * TILE_DIM_@ID@ + threadIdx.y;
    for (int j = 0; j < TILE_DIM_@ID@; j += BLOCK_ROWS_@ID@) {
        odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

void launch_transpose_@ID@(float* d_out, const float* d_in, int width, int height, cudaStream_t stream)
{
    dim3 grid(width / TILE_DIM_@ID@, height / TILE_DIM_@ID@);
    transpose_@ID@<<<grid, dim3(TILE_DIM_@ID@, BLOCK_ROWS_@ID@), 0, stream>>>(d_out, d_in, width, height);
    CUDA_CHECK(cudaGetLastError());
}
"
        }
        1 => {
            "constexpr int kReduceBlock_@ID@ = @BLOCK@;

// Sums one block's worth of input per block, sequential addressing.
__global__ void reduce_sum_@ID@(const float* __restrict__ in, float* __restrict__ out, unsigned int n)
{
    __shared__ float sdata[kReduceBlock_@ID@];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;

    float v = 0.0f;
    if (i < n) v = in[i];
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

float reduce_host_@ID@(const float* d_in, float* d_partial, unsigned int n)
{
    unsigned int blocks = (n + kReduceBlock_@ID@ * 2 - 1) / (kReduceBlock_@ID@ * 2);
    reduce_sum_@ID@<<<blocks, kReduceBlock_@ID@>>>(d_in, d_partial, n);
    std::vector<float> partial(blocks);
    CUDA_CHECK(cudaMemcpy(partial.data(), d_partial, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    float total = 0.0f;
    for (unsigned int b = 0; b < blocks; ++b) total += partial[b];
    return total;
}
"
        }
        2 => {
            "#define REDUCE_THREADS_@ID@ @BLOCK@

// Interleaved addressing: the classic reduction whose stride doubles every step.
__global__ void reduce_interleaved_@ID@(const int* g_idata, int* g_odata)
{
    __shared__ int sdata[REDUCE_THREADS_@ID@];
    unsigned int tid = threadIdx.x;
    sdata[tid] = g_idata[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        int index = 2 * s * tid;
        if (index < blockDim.x) {
            sdata[index] += sdata[index + s];
        }
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

void run_reduce_interleaved_@ID@(const int* d_in, int* d_out, int blocks)
{
    reduce_interleaved_@ID@<<<blocks, REDUCE_THREADS_@ID@>>>(d_in, d_out);
}
"
        }
        3 => {
            "#define STRIDE_@ID@ @STRIDE@
#define THREADS_@ID@ @BLOCK@

// Each thread owns STRIDE consecutive words of the staging buffer.
__global__ void strided_stage_@ID@(const float* in, float* out, int n)
{
    __shared__ float buf[THREADS_@ID@ * STRIDE_@ID@];
    int base = blockIdx.x * THREADS_@ID@ * STRIDE_@ID@;
    for (int k = 0; k < STRIDE_@ID@; ++k) {
        buf[k * THREADS_@ID@ + threadIdx.x] = in[base + k * THREADS_@ID@ + threadIdx.x];
    }
    __syncthreads();
    float acc = 0.0f;
    for (int k = 0; k < STRIDE_@ID@; ++k) {
        acc += buf[threadIdx.x * STRIDE_@ID@ + k];
    }
    out[blockIdx.x * THREADS_@ID@ + threadIdx.x] = acc;
}

void launch_strided_stage_@ID@(const float* d_in, float* d_out, int n)
{
    int blocks = (n + THREADS_@ID@ * STRIDE_@ID@ - 1) / (THREADS_@ID@ * STRIDE_@ID@);
    strided_stage_@ID@<<<blocks, THREADS_@ID@>>>(d_in, d_out, n);
}
"
        }
        4 => {
            "// A 32x32 tile stored with an XOR swizzle of the column by the row.
__global__ void swizzled_transpose_@ID@(const float* in, float* out, int ld)
{
    __shared__ float smem[32][32];
    int col = threadIdx.x;
    for (int row = threadIdx.y; row < 32; row += @ROWS@) {
        smem[row][col ^ row] = in[(blockIdx.y * 32 + row) * ld + blockIdx.x * 32 + col];
    }
    __syncthreads();
    for (int row = threadIdx.y; row < 32; row += @ROWS@) {
        out[(blockIdx.x * 32 + row) * ld + blockIdx.y * 32 + col] = smem[col][row ^ col];
    }
}

void launch_swizzled_transpose_@ID@(const float* d_in, float* d_out, int n)
{
    dim3 grid(n / 32, n / 32);
    swizzled_transpose_@ID@<<<grid, dim3(32, @ROWS@)>>>(d_in, d_out, n);
}
"
        }
        5 => {
            "constexpr int kVecThreads_@ID@ = @BLOCK@;

// Vectorised staging through float4 and double arrays.
__global__ void vector_stage_@ID@(const float4* __restrict__ in, float4* __restrict__ out, double* sums)
{
    __shared__ float4 stage[kVecThreads_@ID@];
    __shared__ double partial[kVecThreads_@ID@][2];
    int t = threadIdx.x;
    stage[t] = in[blockIdx.x * kVecThreads_@ID@ + t];
    __syncthreads();
    float4 v = stage[(t * @STRIDE@) % kVecThreads_@ID@];
    partial[t][0] = v.x + v.y;
    partial[t][1] = v.z + v.w;
    __syncthreads();
    out[blockIdx.x * kVecThreads_@ID@ + t] = v;
    if (t < 32) {
        double acc = 0.0;
        for (int k = t; k < kVecThreads_@ID@; k += 32) acc += partial[k][0] + partial[k][1];
        sums[blockIdx.x * 32 + t] = acc;
    }
}

void launch_vector_stage_@ID@(const float4* d_in, float4* d_out, double* d_sums, int blocks)
{
    vector_stage_@ID@<<<blocks, kVecThreads_@ID@>>>(d_in, d_out, d_sums);
}
"
        }
        6 => {
            "#define MM_TILE_@ID@ @TILE@

// Tiled matrix multiply C = A * B for square matrices of side n.
__global__ void matmul_tiled_@ID@(const float* A, const float* B, float* C, int n)
{
    __shared__ float As[MM_TILE_@ID@][MM_TILE_@ID@];
    __shared__ float Bs[MM_TILE_@ID@][MM_TILE_@ID@ + @PAD@];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * MM_TILE_@ID@ + ty;
    int col = blockIdx.x * MM_TILE_@ID@ + tx;
    float acc = 0.0f;
    for (int t = 0; t < n / MM_TILE_@ID@; ++t) {
        As[ty][tx] = A[row * n + t * MM_TILE_@ID@ + tx];
        Bs[ty][tx] = B[(t * MM_TILE_@ID@ + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < MM_TILE_@ID@; ++k) {
            acc += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();
    }
    C[row * n + col] = acc;
}

void launch_matmul_@ID@(const float* dA, const float* dB, float* dC, int n)
{
    dim3 block(MM_TILE_@ID@, MM_TILE_@ID@);
    dim3 grid(n / MM_TILE_@ID@, n / MM_TILE_@ID@);
    matmul_tiled_@ID@<<<grid, block>>>(dA, dB, dC, n);
}
"
        }
        7 => {
            "#define HIST_BINS_@ID@ 256

// Per-block histogram in shared memory, merged into the global one.
__global__ void histogram_@ID@(const unsigned char* data, unsigned int* hist, int n)
{
    __shared__ unsigned int local[HIST_BINS_@ID@];
    for (int b = threadIdx.x; b < HIST_BINS_@ID@; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < HIST_BINS_@ID@; b += blockDim.x) atomicAdd(&hist[b], local[b]);
}

void launch_histogram_@ID@(const unsigned char* d_data, unsigned int* d_hist, int n)
{
    histogram_@ID@<<<64, @BLOCK@>>>(d_data, d_hist, n);
}
"
        }
        _ => {
            "#define RADIUS_@ID@ 4
#define BLOCK_X_@ID@ 32
#define BLOCK_Y_@ID@ @ROWS@

// 1D horizontal stencil with a halo in a 2D shared tile.
__global__ void stencil_row_@ID@(const float* in, float* out, int w, int h)
{
    __shared__ float s[BLOCK_Y_@ID@][BLOCK_X_@ID@ + 2 * RADIUS_@ID@];
    int gx = blockIdx.x * BLOCK_X_@ID@ + threadIdx.x;
    int gy = blockIdx.y * BLOCK_Y_@ID@ + threadIdx.y;
    s[threadIdx.y][threadIdx.x + RADIUS_@ID@] = in[gy * w + gx];
    if (threadIdx.x < RADIUS_@ID@) {
        s[threadIdx.y][threadIdx.x] = in[gy * w + max(gx - RADIUS_@ID@, 0)];
        s[threadIdx.y][threadIdx.x + BLOCK_X_@ID@ + RADIUS_@ID@] = in[gy * w + min(gx + BLOCK_X_@ID@, w - 1)];
    }
    __syncthreads();
    float sum = 0.0f;
#pragma unroll
    for (int k = -RADIUS_@ID@; k <= RADIUS_@ID@; ++k) {
        sum += s[threadIdx.y][threadIdx.x + RADIUS_@ID@ + k];
    }
    out[gy * w + gx] = sum / (2 * RADIUS_@ID@ + 1);
}

void launch_stencil_row_@ID@(const float* d_in, float* d_out, int w, int h)
{
    dim3 grid(w / BLOCK_X_@ID@, h / BLOCK_Y_@ID@);
    stencil_row_@ID@<<<grid, dim3(BLOCK_X_@ID@, BLOCK_Y_@ID@)>>>(d_in, d_out, w, h);
}
"
        }
    };
    emit(text, template, &subs);
}

fn cuda_host(rng: &mut Rng, text: &mut String, id: u32) {
    let n = rng.range(3, 12);
    let subs = vec![
        ("ID", id.to_string()),
        ("N", n.to_string()),
        (
            "SCALE",
            format!("{}.{}f", rng.range(0, 9), rng.range(0, 99)),
        ),
    ];
    let template = match rng.below(6) {
        0 => {
            "// Reference implementation on the host, used by the self-test.
static void reference_transform_@ID@(const std::vector<float>& in, std::vector<float>& out, int width, int height)
{
    out.resize(in.size());
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            float acc = 0.0f;
            for (int k = -@N@; k <= @N@; ++k) {
                int xx = x + k < 0 ? 0 : (x + k >= width ? width - 1 : x + k);
                acc += in[y * width + xx] * @SCALE@;
            }
            out[y * width + x] = acc / (2 * @N@ + 1);
        }
    }
}
"
        }
        1 => {
            "struct DeviceBuffer_@ID@ {
    float* ptr = nullptr;
    size_t count = 0;

    explicit DeviceBuffer_@ID@(size_t n) : count(n) { CUDA_CHECK(cudaMalloc(&ptr, n * sizeof(float))); }
    ~DeviceBuffer_@ID@() { if (ptr) cudaFree(ptr); }
    DeviceBuffer_@ID@(const DeviceBuffer_@ID@&) = delete;
    DeviceBuffer_@ID@& operator=(const DeviceBuffer_@ID@&) = delete;

    void upload(const std::vector<float>& host) {
        CUDA_CHECK(cudaMemcpy(ptr, host.data(), count * sizeof(float), cudaMemcpyHostToDevice));
    }
    void download(std::vector<float>& host) const {
        host.resize(count);
        CUDA_CHECK(cudaMemcpy(host.data(), ptr, count * sizeof(float), cudaMemcpyDeviceToHost));
    }
};
"
        }
        2 => {
            "// Compares two buffers with a relative tolerance and reports the first mismatch.
static bool compare_results_@ID@(const float* ref, const float* got, size_t n, float eps)
{
    size_t errors = 0;
    for (size_t i = 0; i < n; ++i) {
        float diff = ref[i] - got[i];
        float mag = ref[i] < 0.0f ? -ref[i] : ref[i];
        if (diff < 0.0f) diff = -diff;
        if (diff > eps * (mag + 1.0f)) {
            if (errors < @N@) {
                printf(\"mismatch at %zu: expected %f, got %f\\n\", i, ref[i], got[i]);
            }
            ++errors;
        }
    }
    printf(\"%zu of %zu values differ\\n\", errors, n);
    return errors == 0;
}
"
        }
        3 => {
            "__device__ __forceinline__ float saturate_@ID@(float v)
{
    return fminf(fmaxf(v, 0.0f), 1.0f);
}

__device__ float warp_sum_@ID@(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    return v;
}

// Element-wise scale and bias; no shared memory involved.
__global__ void scale_bias_@ID@(float* data, int n, float scale, float bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = saturate_@ID@(data[i] * scale + bias * @SCALE@);
}
"
        }
        4 => {
            "// Times a kernel launch with CUDA events over a number of repetitions.
static float time_kernel_@ID@(void (*launch)(void*), void* arg, int reps)
{
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    launch(arg);
    CUDA_CHECK(cudaEventRecord(start));
    for (int r = 0; r < reps; ++r) {
        launch(arg);
    }
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    return ms / reps;
}
"
        }
        _ => {
            "enum class Mode_@ID@ { Fast, Accurate, Debug };

static const char* mode_name_@ID@(Mode_@ID@ m)
{
    switch (m) {
    case Mode_@ID@::Fast: return \"fast\";
    case Mode_@ID@::Accurate: return \"accurate\";
    case Mode_@ID@::Debug: return \"debug\";
    }
    return \"unknown\";
}

static int parse_args_@ID@(int argc, char** argv, int* width, int* height, Mode_@ID@* mode)
{
    *width = 1024;
    *height = 1024;
    *mode = Mode_@ID@::Fast;
    for (int i = 1; i < argc; ++i) {
        if (argv[i][0] == '-' && argv[i][1] == 'w' && i + 1 < argc) *width = atoi(argv[++i]);
        else if (argv[i][0] == '-' && argv[i][1] == 'h' && i + 1 < argc) *height = atoi(argv[++i]);
        else if (argv[i][0] == '-' && argv[i][1] == 'd') *mode = Mode_@ID@::Debug;
    }
    return (*width % @N@ == 0) ? 0 : 1;
}
"
        }
    };
    emit(text, template, &subs);
}

fn hlsl_prelude(rng: &mut Rng, text: &mut String, index: u64) {
    emit(
        text,
        "// Copyright (c) 2024 The Sample Authors. All rights reserved.
// Generated file @N@: compute passes of the post-processing chain.

cbuffer FrameConstants : register(b0)
{
    float4x4 g_viewProj;
    float2 g_invResolution;
    float g_exposure;
    uint g_frameIndex;
};

SamplerState g_linearClamp : register(s0);
",
        &[("N", index.to_string())],
    );
    if rng.chance(50) {
        text.push_str("#define THREAD_GROUP_SIZE 64\nstatic const float PI = 3.14159265f;\n\n");
    }
}

fn hlsl_kernel(rng: &mut Rng, text: &mut String, id: u32) {
    let group = *rng.pick(&[8u32, 8, 16]);
    let pad = *rng.pick(&[0u32, 1, 1]);
    let n = *rng.pick(&[64u32, 128, 256]);
    let stride = *rng.pick(&[1u32, 2, 4, 5, 8, 16]);
    let subs = vec![
        ("ID", id.to_string()),
        ("G", group.to_string()),
        ("PAD", pad.to_string()),
        ("N", n.to_string()),
        ("STRIDE", stride.to_string()),
    ];
    let template = match rng.below(5) {
        0 => {
            "#define GROUP_DIM_@ID@ @G@

Texture2D<float4> g_input_@ID@ : register(t0);
RWTexture2D<float4> g_output_@ID@ : register(u0);
groupshared float gs_tile_@ID@[GROUP_DIM_@ID@][GROUP_DIM_@ID@ + @PAD@];

// Transposes the red channel through groupshared memory.
[numthreads(GROUP_DIM_@ID@, GROUP_DIM_@ID@, 1)]
void CSTranspose_@ID@(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID, uint3 dtid : SV_DispatchThreadID)
{
    gs_tile_@ID@[gtid.y][gtid.x] = g_input_@ID@[dtid.xy].r;
    GroupMemoryBarrierWithGroupSync();
    float v = gs_tile_@ID@[gtid.x][gtid.y];
    uint2 dst = uint2(gid.y * GROUP_DIM_@ID@ + gtid.x, gid.x * GROUP_DIM_@ID@ + gtid.y);
    g_output_@ID@[dst] = float4(v, v, v, 1.0f);
}
"
        }
        1 => {
            "StructuredBuffer<float> g_values_@ID@ : register(t1);
RWStructuredBuffer<float> g_partial_@ID@ : register(u1);
groupshared float gs_sum_@ID@[@N@];

// Group-wide tree reduction indexed by SV_GroupIndex.
[numthreads(@N@, 1, 1)]
void CSReduce_@ID@(uint gi : SV_GroupIndex, uint3 gid : SV_GroupID)
{
    gs_sum_@ID@[gi] = g_values_@ID@[gid.x * @N@ + gi];
    GroupMemoryBarrierWithGroupSync();
    [unroll]
    for (uint s = @N@ / 2; s > 0; s >>= 1)
    {
        if (gi < s)
        {
            gs_sum_@ID@[gi] += gs_sum_@ID@[gi + s];
        }
        GroupMemoryBarrierWithGroupSync();
    }
    if (gi == 0)
    {
        g_partial_@ID@[gid.x] = gs_sum_@ID@[0];
    }
}
"
        }
        2 => {
            "#define BLUR_RADIUS_@ID@ 4
#define BLUR_GROUP_@ID@ 64

Texture2D<float4> g_src_@ID@ : register(t2);
RWTexture2D<float4> g_dst_@ID@ : register(u2);
groupshared float4 gs_cache_@ID@[BLUR_GROUP_@ID@ + 2 * BLUR_RADIUS_@ID@];
static const float g_weights_@ID@[2 * BLUR_RADIUS_@ID@ + 1] = { 0.05f, 0.09f, 0.12f, 0.15f, 0.18f, 0.15f, 0.12f, 0.09f, 0.05f };

// Horizontal separable blur with a halo cached in groupshared memory.
[numthreads(BLUR_GROUP_@ID@, 1, 1)]
void CSBlurH_@ID@(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID)
{
    if (gtid.x < BLUR_RADIUS_@ID@)
    {
        int x = max(int(dtid.x) - BLUR_RADIUS_@ID@, 0);
        gs_cache_@ID@[gtid.x] = g_src_@ID@[int2(x, dtid.y)];
    }
    gs_cache_@ID@[gtid.x + BLUR_RADIUS_@ID@] = g_src_@ID@[dtid.xy];
    GroupMemoryBarrierWithGroupSync();
    float4 sum = float4(0, 0, 0, 0);
    [unroll]
    for (int i = -BLUR_RADIUS_@ID@; i <= BLUR_RADIUS_@ID@; ++i)
    {
        sum += g_weights_@ID@[i + BLUR_RADIUS_@ID@] * gs_cache_@ID@[gtid.x + i + BLUR_RADIUS_@ID@];
    }
    g_dst_@ID@[dtid.xy] = sum;
}
"
        }
        3 => {
            "RWByteAddressBuffer g_histogram_@ID@ : register(u3);
Texture2D<float4> g_luma_@ID@ : register(t3);
groupshared uint gs_bins_@ID@[256];

// Luminance histogram with a strided groupshared layout.
[numthreads(16, 16, 1)]
void CSHistogram_@ID@(uint gi : SV_GroupIndex, uint3 dtid : SV_DispatchThreadID)
{
    gs_bins_@ID@[gi] = 0;
    GroupMemoryBarrierWithGroupSync();
    float l = dot(g_luma_@ID@[dtid.xy].rgb, float3(0.2126f, 0.7152f, 0.0722f));
    uint bin = uint(saturate(l) * 255.0f);
    InterlockedAdd(gs_bins_@ID@[bin], 1);
    GroupMemoryBarrierWithGroupSync();
    uint v = gs_bins_@ID@[(gi * @STRIDE@) & 255];
    g_histogram_@ID@.InterlockedAdd(gi * 4, v);
}
"
        }
        _ => {
            "#define TILE_@ID@ @G@

RWStructuredBuffer<float> g_matrix_@ID@ : register(u4);
groupshared float gs_a_@ID@[TILE_@ID@][TILE_@ID@];
groupshared float gs_b_@ID@[TILE_@ID@][TILE_@ID@ + @PAD@];

// Tiled matrix product of two square matrices of side TILE * 8.
[numthreads(TILE_@ID@, TILE_@ID@, 1)]
void CSMatMul_@ID@(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID)
{
    uint row = gid.y * TILE_@ID@ + gtid.y;
    uint col = gid.x * TILE_@ID@ + gtid.x;
    uint n = TILE_@ID@ * 8;
    float acc = 0.0f;
    for (uint t = 0; t < 8; ++t)
    {
        gs_a_@ID@[gtid.y][gtid.x] = g_matrix_@ID@[row * n + t * TILE_@ID@ + gtid.x];
        gs_b_@ID@[gtid.y][gtid.x] = g_matrix_@ID@[(t * TILE_@ID@ + gtid.y) * n + col];
        GroupMemoryBarrierWithGroupSync();
        [unroll]
        for (uint k = 0; k < TILE_@ID@; ++k)
        {
            acc += gs_a_@ID@[gtid.y][k] * gs_b_@ID@[k][gtid.x];
        }
        GroupMemoryBarrierWithGroupSync();
    }
    g_matrix_@ID@[n * n + row * n + col] = acc;
}
"
        }
    };
    emit(text, template, &subs);
}

fn hlsl_bulk(rng: &mut Rng, text: &mut String, id: u32) {
    let subs = vec![
        ("ID", id.to_string()),
        ("K", format!("{}.{}", rng.range(0, 4), rng.range(0, 99))),
    ];
    let template = match rng.below(4) {
        0 => {
            "struct VSInput_@ID@
{
    float3 position : POSITION;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
};

struct PSInput_@ID@
{
    float4 position : SV_Position;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
};

PSInput_@ID@ VSMain_@ID@(VSInput_@ID@ input)
{
    PSInput_@ID@ output;
    output.position = mul(float4(input.position, 1.0f), g_viewProj);
    output.normal = normalize(input.normal);
    output.uv = input.uv * @K@;
    return output;
}
"
        }
        1 => {
            "// ACES filmic tone mapping curve (fitted).
float3 ToneMapACES_@ID@(float3 x)
{
    const float a = 2.51f;
    const float b = 0.03f;
    const float c = 2.43f;
    const float d = 0.59f;
    const float e = 0.14f;
    return saturate((x * (a * x + b)) / (x * (c * x + d) + e));
}

float3 LinearToSRGB_@ID@(float3 c)
{
    float3 lo = c * 12.92f;
    float3 hi = 1.055f * pow(abs(c), 1.0f / 2.4f) - 0.055f;
    return lerp(hi, lo, step(c, 0.0031308f));
}
"
        }
        2 => {
            "Texture2D<float4> g_albedo_@ID@ : register(t5);

float4 PSMain_@ID@(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target
{
    float4 albedo = g_albedo_@ID@.Sample(g_linearClamp, uv);
    float3 lit = albedo.rgb * g_exposure * @K@;
    for (int i = 0; i < 4; ++i)
    {
        lit += 0.01f * float(i) * albedo.rgb;
    }
    return float4(lit, albedo.a);
}
"
        }
        _ => {
            "// GGX normal distribution and Smith visibility terms.
float D_GGX_@ID@(float NoH, float roughness)
{
    float a = roughness * roughness;
    float a2 = a * a;
    float d = NoH * NoH * (a2 - 1.0f) + 1.0f;
    return a2 / (3.14159265f * d * d);
}

float V_SmithGGX_@ID@(float NoV, float NoL, float roughness)
{
    float a = roughness * roughness;
    float gv = NoL * sqrt(NoV * NoV * (1.0f - a) + a);
    float gl = NoV * sqrt(NoL * NoL * (1.0f - a) + a);
    return 0.5f / max(gv + gl, 1e-5f);
}
"
        }
    };
    emit(text, template, &subs);
}
