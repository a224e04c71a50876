# The classic C++ AMP programs, ported to C. Each is a sample and a test
# of its exact output (amp_sample, in CMakeLists.txt).

amp_sample(reduction)
amp_sample(transpose)
amp_sample(histogram)
amp_sample(scan)
amp_sample(convolution)
amp_sample(bitonic_sort)
amp_sample(opencl_tiled_matmul)
# As on a device that allows only 64 work-items per work-group: TS halves to 8.
amp_sample_test(sample_opencl_tiled_matmul_64 opencl_tiled_matmul expected_output_64.txt
                --max-work-group 64)
